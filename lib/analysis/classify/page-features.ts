import type { Line, Page } from "../types";
import { TITLES, type PageClass } from "./cues";
import { indexText, normalizeText, pad, type IndexedText } from "./normalize-text";
import { hasEmailHeader, headsCountColumns } from "./page-cues";

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
/**
 * A type's name followed by one of these nouns only qualifies it: in an English
 * compound the last noun is the head, so "Documentary Credit Presentation" is a
 * presentation of documents and "Bill of Lading Instructions" are instructions.
 * Each maps to the class of the document it names, or to undefined when that is
 * no type of ours (an application for a credit is not the credit).
 */
const HEAD_NOUNS: ReadonlyMap<string, PageClass | undefined> = new Map<string, PageClass | undefined>([
  ["PRESENTATION", "document_instruction"],
  ["SCHEDULE", "document_instruction"],
  ["INSTRUCTIONS", "document_instruction"],
  ["INSTRUCTION", "document_instruction"],
  ["TRANSMITTAL", "document_instruction"],
  ["APPLICATION", undefined],
  ["REQUEST", undefined],
  ["CHECKLIST", undefined],
]);
/** "COMMERCIAL INVOICE IN 3 ORIGINALS", "PACKING LIST SHOWING…": in body type, a document requirement, not a title. */
const REQUIREMENT_FOLLOWERS = new Set(["IN", "ISSUED", "SHOWING", "MADE", "SIGNED", "COVERING", "TO", "WITH", "AND", "EVIDENCING", "INDICATING", "STATING", "CERTIFYING", "DULY"]);
/** A title phrase preceded by one of these is a mention in running text ("as per invoice"). */
const MENTION_LEADERS = new Set(["PER", "OF", "UNDER", "SEE", "TO", "IN", "AND", "WITH", "FOR", "BY", "THE", "A", "AN", "YOUR", "OUR", "ON", "FROM", "SAID", "THIS", "SIGNED"]);
/** A one-word title ("INVOICE", "DRAFT") must be printed this much larger than the body: in body size it is a column heading. */
const SINGLE_WORD_TITLE_FONT = 1.2;
/** Titles that forms also print as field labels ("Purchase order ECC-2552"): like one-word titles, they must stand out in size. */
const LABEL_LIKE_TITLES = new Set(["PURCHASE ORDER"]);
/** Titles that are also a document's status, stamped across another document. */
const STATUS_TITLES = new Set(["DRAFT"]);
/** How much size, against position and exactness, makes a line the page's title. */
const FONT_PROMINENCE = 2;
const EXACT_PROMINENCE = 0.5;
/** This many document types named on body-size lines make a list of documents. */
const LIST_MIN_CLASSES = 3;
/** An enumerated line ("1. COMMERCIAL INVOICE", "+ PACKING LIST") is an item of a list, never a title. */
const LIST_ITEM = /^\s*(?:\d{1,2}\s*[.)]|\(?[a-z]\)|[+•*\-–])\s*\S/i;
/** Nouns that make a prominent line a document's title. */
const DOCUMENT_NOUNS = new Set(["CERTIFICATE", "CERTIFICATION", "REPORT", "LIST", "NOTE", "SPECIFICATION", "POLICY", "DECLARATION", "INSTRUCTIONS", "INSTRUCTION", "SCHEDULE"]);
/** Words that name a type inside such a title, whatever the word order. */
const TITLE_KEYWORDS: ReadonlyMap<string, PageClass> = new Map<string, PageClass>([
  ["INSTRUCTIONS", "document_instruction"],
  ["INSTRUCTION", "document_instruction"],
  ["COVERING", "document_instruction"],
  ["FUMIGATION", "fumigation_certificate"],
  ["PHYTOSANITARY", "phytosanitary_certificate"],
  ["ORIGIN", "certificate_of_origin"],
  ["WEIGHT", "certificate_of_weight"],
  ["WEIGHING", "certificate_of_weight"],
  ["QUALITY", "certificate_of_quality"],
  ["ANALYSIS", "certificate_of_quality"],
  ["INSPECTION", "certificate_of_quality"],
  ["PACKING", "packing_list"],
  ["INSURANCE", "insurance"],
  ["BENEFICIARY", "beneficiary_certificate"],
  ["VESSEL", "vessel_certificate"],
]);
/** A keyword title is short: a heading, not a sentence. */
const KEYWORD_TITLE_MAX_WORDS = 7;
/** Title-region lines whose baselines differ by less than this share of the font size form one row. */
const ROW_TOLERANCE = 0.3;
/** At least this many single letters in a row read as one letter-spaced word. */
const MIN_SPACED_LETTERS = 3;
/** Tagged SWIFT fields at the start of a line: ":20:", "31C:", ":45A:". */
const MT_TAG = /^\s*:?F?(\d{2}[A-Z]?):/;

interface TitleMatch {
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
  /** Each line normalised (see normalizeText), in reading order. */
  normalizedLines: string[];
  /** All lines normalised and joined, for whole-word phrase matching. */
  text: IndexedText;
  wordCount: number;
  medianFontSize: number;
  /** The page's title, when one is printed. */
  title?: TitleMatch;
  /** Every title-like line, the title included. */
  titleMatches: TitleMatch[];
  /** Distinct SWIFT field tags opening lines. */
  mtTags: number;
  /** A short line heads columns of originals and copies: a schedule of enclosed documents. */
  countColumns: boolean;
  /** The page opens with an e-mail's header block (From, Sent, To, Subject in any of several languages). */
  emailHeader: boolean;
}

/** Title phrases by their first word; within a word, longest first so "CERTIFICATE OF ORIGIN FORM A" beats "CERTIFICATE OF ORIGIN". */
const TITLES_BY_FIRST_WORD: ReadonlyMap<string, ReadonlyArray<readonly [string, PageClass]>> = indexTitles();
/** No title line is longer than the longest title plus its allowed extra words. */
const MAX_TITLE_LINE_WORDS =
  Math.max(...Object.values(TITLES).flatMap((phrases) => phrases.map((p) => p.split(" ").length))) + TITLE_EXTRA_WORDS;

function indexTitles(): Map<string, Array<readonly [string, PageClass]>> {
  const index = new Map<string, Array<readonly [string, PageClass]>>();
  for (const [cls, phrases] of Object.entries(TITLES) as [PageClass, readonly string[]][]) {
    for (const phrase of phrases) {
      const first = phrase.split(" ")[0]!;
      const list = index.get(first) ?? [];
      list.push([phrase, cls]);
      index.set(first, list);
    }
  }
  for (const list of index.values()) list.sort((a, b) => b[0].length - a[0].length);
  return index;
}

export function readPageFeatures(page: Page): PageFeatures {
  const normalizedLines: string[] = [];
  const tags = new Set<string>();
  let wordCount = 0;
  for (const line of page.lines) {
    normalizedLines.push(normalizeText(line.text));
    wordCount += line.words.length;
    const tag = MT_TAG.exec(line.text)?.[1];
    if (tag) tags.add(tag);
  }
  const medianFontSize = medianOf(page.lines.map((l) => l.fontSize));
  const emailHeader = hasEmailHeader(page, normalizedLines);
  const countColumns = headsCountColumns(page, normalizedLines);
  const titleMatches: TitleMatch[] = [];
  const unmatched: Line[] = [];
  const normalizedOf = new Map<Line, string>();
  page.lines.forEach((line, i) => {
    if (!isTitleCandidate(line, page, medianFontSize)) return;
    const normalized = normalizedLines[i] ?? "";
    const match = matchTitle(line, normalized, page, medianFontSize);
    if (match) titleMatches.push(match);
    else {
      unmatched.push(line);
      normalizedOf.set(line, normalized);
    }
  });
  for (const row of rowsOf(unmatched)) {
    const joined = makeRowLine(row);
    const match = matchTitle(joined, row.map((l) => collapseLetterSpacing(normalizedOf.get(l) ?? normalizeText(l.text))).join(" "), page, medianFontSize);
    if (match) titleMatches.push(match);
  }
  const titles = isDocumentList(titleMatches, medianFontSize) ? titleMatches.filter((m) => m.line.fontSize >= SINGLE_WORD_TITLE_FONT * medianFontSize) : titleMatches;
  const title = pickTitle(titles);
  return { page, normalizedLines, text: indexText(normalizedLines.join(" ")), wordCount, medianFontSize, title, titleMatches: titles, mtTags: tags.size, countColumns, emailHeader };
}

/**
 * The most prominent title; a title that is also a status stamp ("DRAFT" on a
 * carrier's draft B/L sent for approval) yields to another type's title on the page.
 */
function pickTitle(titles: readonly TitleMatch[]): TitleMatch | undefined {
  const named = titles.some((m) => !STATUS_TITLES.has(m.phrase)) ? titles.filter((m) => !STATUS_TITLES.has(m.phrase)) : titles;
  return named.reduce<TitleMatch | undefined>((best, m) => (!best || m.prominence > best.prominence ? m : best), undefined);
}

function medianOf(values: number[]): number {
  if (values.length === 0) return 0;
  const sorted = values.slice().sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)] ?? 0;
}

/** Body-size lines naming several document types are a list of documents (a covering letter's enclosures), not titles. */
function isDocumentList(matches: TitleMatch[], median: number): boolean {
  const plain = new Set(matches.filter((m) => m.line.fontSize < SINGLE_WORD_TITLE_FONT * median).map((m) => m.cls));
  return plain.size >= LIST_MIN_CLASSES;
}

function isTitleCandidate(line: Line, page: Page, median: number): boolean {
  if (LIST_ITEM.test(line.text)) return false;
  const fontRatio = median > 0 ? line.fontSize / median : 1;
  return page.height <= 0 || line.y < TITLE_REGION_SHARE * page.height || fontRatio >= PROMINENT_FONT_RATIO;
}

/** Lines of the title region that share a baseline: a title split by wide letter or word spacing. */
function rowsOf(lines: Line[]): Line[][] {
  const sorted = lines.slice().sort((a, b) => a.y + a.height - (b.y + b.height) || a.x - b.x);
  const rows: Line[][] = [];
  for (const line of sorted) {
    const row = rows[rows.length - 1];
    const last = row?.[row.length - 1];
    if (row && last && Math.abs(last.y + last.height - (line.y + line.height)) <= ROW_TOLERANCE * line.fontSize) row.push(line);
    else rows.push([line]);
  }
  return rows.filter((row) => row.length > 1);
}

function makeRowLine(row: Line[]): Line {
  const first = row[0]!;
  const fontSize = Math.max(...row.map((l) => l.fontSize));
  return { ...first, text: row.map((l) => l.text).join(" "), fontSize };
}

/** A single letter standing as a word of a normalised line. */
const SINGLE_LETTER_WORD = /(?:^| )[A-Z](?: |$)/;

/** "P A C K I N G" → "PACKING": runs of single letters are one letter-spaced word. */
function collapseLetterSpacing(normalized: string): string {
  if (!SINGLE_LETTER_WORD.test(normalized)) return normalized;
  const out: string[] = [];
  let run = "";
  for (const word of normalized.split(" ")) {
    if (word.length === 1 && /[A-Z]/.test(word)) {
      run += word;
      continue;
    }
    if (run) out.push(...(run.length >= MIN_SPACED_LETTERS ? [run] : run.split("")));
    run = "";
    out.push(word);
  }
  if (run) out.push(...(run.length >= MIN_SPACED_LETTERS ? [run] : run.split("")));
  return out.join(" ");
}

function matchTitle(line: Line, normalized: string, page: Page, median: number): TitleMatch | undefined {
  if (!isTitleCandidate(line, page, median)) return undefined;
  const fontRatio = median > 0 ? line.fontSize / median : 1;
  const lineWords = collapseLetterSpacing(normalized).split(" ").filter((w) => w.length > 0);
  // Without a title's first word only a keyword title can match, and those must stand out in size.
  if (fontRatio < SINGLE_WORD_TITLE_FONT && !lineWords.some((w) => TITLES_BY_FIRST_WORD.has(w))) return undefined;
  const words = stripNoise(lineWords);
  if (words.length === 0 || words.length > MAX_TITLE_LINE_WORDS) return undefined;
  const core = pad(words.join(" "));
  const candidates = titleCandidates(words);
  for (const [phrase, cls] of candidates) {
    const at = core.indexOf(` ${phrase} `);
    if (at < 0) continue;
    const phraseWords = phrase.split(" ").length;
    if (words.length > phraseWords + TITLE_EXTRA_WORDS) continue;
    const before = core.slice(0, at).trim().split(" ").pop() ?? "";
    const after = core.slice(at + phrase.length + 2).trim().split(" ")[0] ?? "";
    if (LABEL_FOLLOWERS.has(after) || MENTION_LEADERS.has(before) || followsLabel(line.text, phrase)) continue;
    if (fontRatio < SINGLE_WORD_TITLE_FONT && REQUIREMENT_FOLLOWERS.has(after)) continue;
    if ((phraseWords === 1 || LABEL_LIKE_TITLES.has(phrase)) && fontRatio < SINGLE_WORD_TITLE_FONT) continue;
    const position = page.height > 0 ? 1 - line.y / page.height : 1;
    const prominenceOf = (exact: boolean) => FONT_PROMINENCE * Math.min(fontRatio, 3) + position + (exact ? EXACT_PROMINENCE : 0);
    if (HEAD_NOUNS.has(after)) {
      const head = HEAD_NOUNS.get(after);
      if (!head) continue;
      return { cls: head, phrase: `${phrase} ${after}`, exact: false, prominence: prominenceOf(false), line };
    }
    const exact = words.length === phraseWords;
    return { cls, phrase, exact, prominence: prominenceOf(exact), line };
  }
  return matchKeywordTitle(words, line, page, fontRatio);
}

/** Titles starting with any of the words, longest first. */
function titleCandidates(words: readonly string[]): ReadonlyArray<readonly [string, PageClass]> {
  let found: ReadonlyArray<readonly [string, PageClass]> | undefined;
  let merged = false;
  for (const word of words) {
    const titles = TITLES_BY_FIRST_WORD.get(word);
    if (!titles) continue;
    if (!found) found = titles;
    else {
      found = [...found, ...titles];
      merged = true;
    }
  }
  // Each list is already longest first; only a merged list needs sorting (stable, so equal lengths keep word order).
  return !found ? [] : merged ? [...found].sort((a, b) => b[0].length - a[0].length) : found;
}

/**
 * A prominent short line pairing a document noun with a type's keyword, in any
 * order ("TREATMENT CERTIFICATE - FUMIGATION", "ORIGIN CERTIFICATE"), is that
 * type's title even when no listed title matches it word for word.
 */
function matchKeywordTitle(words: string[], line: Line, page: Page, fontRatio: number): TitleMatch | undefined {
  if (fontRatio < SINGLE_WORD_TITLE_FONT || words.length > KEYWORD_TITLE_MAX_WORDS) return undefined;
  if (!words.some((w) => DOCUMENT_NOUNS.has(w))) return undefined;
  const keyword = words.find((w) => TITLE_KEYWORDS.has(w));
  if (!keyword) return undefined;
  const position = page.height > 0 ? 1 - line.y / page.height : 1;
  return { cls: TITLE_KEYWORDS.get(keyword)!, phrase: keyword, exact: false, prominence: FONT_PROMINENCE * Math.min(fontRatio, 3) + position, line };
}

/** "Terms of payment: Letter of Credit": the phrase is the value of a label, not a title. */
function followsLabel(raw: string, phrase: string): boolean {
  const colon = raw.indexOf(":");
  if (colon < 0) return false;
  const at = raw.toUpperCase().indexOf(phrase.split(" ")[0]!);
  return at > colon;
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
