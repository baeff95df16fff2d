/**
 * Finds labels on lines. All synonyms of LABEL_SYNONYMS and STOP_LABELS are
 * compiled into one regular expression (longest first), run once per line.
 * A label counts at the start of a line (after an optional box number such as
 * "5." or "(3)"), or inside a line when a colon follows it. One-word labels
 * ("Date", "To", "Goods") are common words, so they count only with a colon
 * or when they are the whole line (a box title).
 */
import type { IndexedLine } from "./doc-index";
import { LABEL_SYNONYMS, STOP_LABELS } from "./label-vocab";

export interface LabelHit {
  /** Semantic labels this synonym stands for (empty for stop labels). */
  keys: readonly string[];
  line: IndexedLine;
  /** Where the label (with its box number) starts in the line. */
  start: number;
  /** Where the value may start: after the label and its separators. */
  valueStart: number;
  colon: boolean;
}

const BOX_NUMBER = "(?:\\(?\\d{1,2}[.)]\\s*|[A-Z]\\)\\s+)?";
/** After a label: a plural "(S)", a parenthetical note ("(or order)"), a colon, other separators. */
const SEPARATOR = "(?:\\s*\\(S\\))?(?:\\s*\\([^)]{1,60}\\))?\\s*(?<colon>[:：])?[\\s.:#\\-–]*";

/** Labels this short ("L/C", "B/L", "P/O") are as ambiguous as one word. */
const SHORT_LABEL = 3;
/** Weak labels that still count inside a line before a number ("MEASUREMENT 90.000 M3"). */
const NUMERIC_KEYS = new Set(["measurement", "gross_weight", "net_weight", "tare_weight"]);

function tokensOf(synonym: string): string[] {
  return synonym.toUpperCase().match(/[A-Z0-9]+/g) ?? [];
}

function sourceOf(synonym: string): string {
  return tokensOf(synonym).join("[\\s./&'():\\-]*");
}

interface Synonym {
  source: string;
  keys: string[];
  weak: boolean;
}

function compileSynonyms(): { pattern: RegExp; synonyms: Synonym[] } {
  const bySource = new Map<string, Synonym>();
  const add = (synonym: string, key: string | undefined) => {
    const source = sourceOf(synonym);
    if (!source) return;
    const tokens = tokensOf(synonym);
    const weak = tokens.length === 1 || tokens.join("").length <= SHORT_LABEL;
    const entry = bySource.get(source) ?? { source, keys: [], weak };
    if (key && !entry.keys.includes(key)) entry.keys.push(key);
    bySource.set(source, entry);
  };
  for (const [key, synonyms] of Object.entries(LABEL_SYNONYMS)) for (const s of synonyms) add(s, key);
  for (const s of STOP_LABELS) add(s, undefined);
  const synonyms = [...bySource.values()].sort((a, b) => b.source.length - a.source.length);
  const alternatives = synonyms.map((s, i) => `(?<s${i}>${s.source})`).join("|");
  const pattern = new RegExp(`(?<![A-Z0-9'])${BOX_NUMBER}(?:${alternatives})(?![A-Z0-9]|'S)${SEPARATOR}`, "g");
  return { pattern, synonyms };
}

const COMPILED = compileSynonyms();

/** A bare title line ("Shipper", "9. Marks and Nos:") with nothing after it. */
function isWholeLine(line: IndexedLine, end: number): boolean {
  return end >= line.upper.length;
}

/** "No. UA/PC/2047474": an abbreviated one-word label followed by a reference (four or more characters with a digit). */
const ABBREVIATED_VALUE = /^\s*\.\s*(?=\S*\d)\S{4,}/;

/** Inside a line, a label without a colon counts when a number follows ("GROSS WEIGHT 45,270 KGS"). */
const NUMBER_NEXT = /^\d/;
/** A multi-word label inside a line counts before a number or a reference ("L/C No. BOSLC2428", "GROSS WEIGHT 45,270"). */
const REFERENCE_NEXT = /^[A-Z0-9][A-Z0-9/.-]*\d/;

const STICKY = new RegExp(COMPILED.pattern.source, "y");
const SLASH = /^\s*\/\s*/;

/** "Buyer / Bill to", "Notify / Consignee:": a second label joined by a slash extends the first. */
function extendJoined(upper: string, at: number): { end: number; colon: boolean } | undefined {
  const slash = SLASH.exec(upper.slice(at));
  if (!slash) return undefined;
  STICKY.lastIndex = at + slash[0].length;
  const m = STICKY.exec(upper);
  if (!m || m[0].length === 0) return undefined;
  return { end: STICKY.lastIndex, colon: m.groups!.colon !== undefined };
}

/** Every label on `line`, left to right. */
export function findLabels(line: IndexedLine): LabelHit[] {
  const hits: LabelHit[] = [];
  const { pattern, synonyms } = COMPILED;
  pattern.lastIndex = 0;
  for (let m = pattern.exec(line.upper); m; m = pattern.exec(line.upper)) {
    const groups = m.groups!;
    const index = synonyms.findIndex((_, i) => groups[`s${i}`] !== undefined);
    const synonym = synonyms[index]!;
    let colon = groups.colon !== undefined;
    const atStart = m.index === 0;
    let end = m.index + m[0].length;
    const joined = extendJoined(line.upper, end);
    if (joined) [end, colon] = [joined.end, colon || joined.colon];
    const abbreviated = synonym.weak && ABBREVIATED_VALUE.test(line.upper.slice(m.index + m[0].indexOf(groups[`s${index}`]!) + groups[`s${index}`]!.length));
    const boxed = /^\(?\d/.test(m[0]);
    const accepted = atStart
      ? boxed
        ? colon || isWholeLine(line, end)
        : !synonym.weak || colon || abbreviated || isWholeLine(line, end)
      : line.upper[m.index - 1] === " " &&
        (colon ||
          (synonym.weak ? NUMBER_NEXT.test(line.upper.slice(end)) && synonym.keys.some((k) => NUMERIC_KEYS.has(k)) : REFERENCE_NEXT.test(line.upper.slice(end))));
    if (accepted) hits.push({ keys: synonym.keys, line, start: m.index, valueStart: end, colon });
    else pattern.lastIndex = m.index + 1;
    if (m[0].length === 0) pattern.lastIndex++;
  }
  return hits;
}
