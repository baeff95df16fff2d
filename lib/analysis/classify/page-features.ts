import type { Line, Page } from "../types";
import { TITLES, type PageClass } from "./cues";
import { normalizeText, pad } from "./normalize-text";

/** Titles sit in this top share of the page (below it only a prominent line can be a title). */
const TITLE_REGION_SHARE = 0.4;
/** A line this many times the page's median font size counts as prominent wherever it sits. */
const PROMINENT_FONT_RATIO = 1.4;
/** A title line may carry this many words beyond the title itself (issuer name, "No. 12", a date). */
const TITLE_EXTRA_WORDS = 4;
/** Words that decorate a title line without changing it: stripped at the line's edges only. */
const TITLE_NOISE = new Set(["ORIGINAL", "COPY", "DUPLICATE", "TRIPLICATE", "QUADRUPLICATE", "NON", "NEGOTIABLE", "CONTINUED", "CONT", "D", "PAGE", "OF", "SHEET", "THE"]);
/** A title phrase followed by one of these is a field label ("Invoice No."), not a title. */
const LABEL_FOLLOWERS = new Set(["NO", "NR", "NUMBER", "DATE", "REF", "REFERENCE", "DATED", "AMOUNT", "VALUE", "ISSUED", "N"]);
/** A title phrase preceded by one of these is a mention in running text ("as per invoice"). */
const MENTION_LEADERS = new Set(["PER", "OF", "UNDER", "SEE", "TO", "IN", "AND", "WITH", "FOR", "BY", "THE", "A", "AN", "YOUR", "OUR", "ON", "FROM", "SAID", "THIS", "SIGNED"]);
/** Tagged SWIFT fields at the start of a line: ":20:", "31C:", ":45A:". */
const MT_TAG = /^:?(\d{2}[A-Z]?):/;

export interface TitleMatch {
  cls: PageClass;
  phrase: string;
  /** The phrase is the whole line once decorations are stripped. */
  exact: boolean;
  /** Font size relative to the page median, position from the top, exactness: the highest is the page's title. */
  prominence: number;
  line: Line;
}

export interface PageFeatures {
  page: Page;
  /** All lines normalised and joined, padded for whole-word matching. */
  text: string;
  wordCount: number;
  medianFontSize: number;
  /** The page's title, when one is printed. */
  title?: TitleMatch;
  /** Every title-like line, the title included. */
  titleMatches: TitleMatch[];
  /** Distinct SWIFT field tags opening lines. */
  mtTags: number;
}

/** Longest phrase first, so "CERTIFICATE OF ORIGIN FORM A" wins over "CERTIFICATE OF ORIGIN". */
const TITLE_PHRASES: ReadonlyArray<readonly [string, PageClass]> = (Object.entries(TITLES) as [PageClass, readonly string[]][])
  .flatMap(([cls, phrases]) => phrases.map((phrase) => [phrase, cls] as const))
  .sort((a, b) => b[0].length - a[0].length);

export function readPageFeatures(page: Page): PageFeatures {
  const normalizedLines: string[] = [];
  const tags = new Set<string>();
  let wordCount = 0;
  for (const line of page.lines) {
    normalizedLines.push(normalizeText(line.text));
    wordCount += line.words.length;
    const tag = MT_TAG.exec(line.text.trimStart())?.[1];
    if (tag) tags.add(tag);
  }
  const medianFontSize = medianOf(page.lines.map((l) => l.fontSize));
  const titleMatches: TitleMatch[] = [];
  page.lines.forEach((line, i) => {
    const match = matchTitle(line, normalizedLines[i] ?? "", page, medianFontSize);
    if (match) titleMatches.push(match);
  });
  const title = titleMatches.reduce<TitleMatch | undefined>((best, m) => (!best || m.prominence > best.prominence ? m : best), undefined);
  return { page, text: pad(normalizedLines.join(" ")), wordCount, medianFontSize, title, titleMatches, mtTags: tags.size };
}

function medianOf(values: number[]): number {
  if (values.length === 0) return 0;
  const sorted = values.slice().sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)] ?? 0;
}

function matchTitle(line: Line, normalized: string, page: Page, median: number): TitleMatch | undefined {
  const fontRatio = median > 0 ? line.fontSize / median : 1;
  const inTitleRegion = page.height <= 0 || line.y < TITLE_REGION_SHARE * page.height;
  if (!inTitleRegion && fontRatio < PROMINENT_FONT_RATIO) return undefined;
  const words = stripNoise(normalized.split(" ").filter((w) => w.length > 0));
  if (words.length === 0) return undefined;
  const core = pad(words.join(" "));
  for (const [phrase, cls] of TITLE_PHRASES) {
    const at = core.indexOf(` ${phrase} `);
    if (at < 0) continue;
    const phraseWords = phrase.split(" ").length;
    if (words.length > phraseWords + TITLE_EXTRA_WORDS) continue;
    const before = core.slice(0, at).trim().split(" ").pop() ?? "";
    const after = core.slice(at + phrase.length + 2).trim().split(" ")[0] ?? "";
    if (LABEL_FOLLOWERS.has(after) || MENTION_LEADERS.has(before)) continue;
    const exact = words.length === phraseWords;
    const position = page.height > 0 ? 1 - line.y / page.height : 1;
    const prominence = Math.min(fontRatio, 3) + position + (exact ? 1 : 0);
    return { cls, phrase, exact, prominence, line };
  }
  return undefined;
}

/** Drops decorations and page counters from both ends of a title line. */
function stripNoise(words: string[]): string[] {
  let start = 0;
  let end = words.length;
  const isNoise = (w: string | undefined) => w !== undefined && (TITLE_NOISE.has(w) || /^\d+$/.test(w));
  while (start < end && isNoise(words[start])) start++;
  while (end > start && isNoise(words[end - 1])) end--;
  return words.slice(start, end);
}
