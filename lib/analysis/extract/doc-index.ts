/**
 * One document's lines, indexed once: spatial order (page, row, x), rows of
 * lines on one baseline, and the document's date convention. Every extractor
 * reads through this index, so no rule rescans the pages.
 */
import { buildDateContext, type DateContext } from "../normalize/date";
import type { Page, Word } from "../types";

/** Lines whose vertical centres are closer than this fraction of their height share a row. */
const SAME_ROW_TOLERANCE = 0.5;
/** A line repeated on this many pages (digits ignored) is a running header or footer. */
const REPEAT_PAGES = 2;
/** Running headers and footers live in this fraction of the page at its top and bottom. */
const MARGIN_BAND = 0.12;
/** A horizontal gap wider than this many font sizes separates two columns, even inside one Line. */
const COLUMN_GAP_EM = 1.5;

export interface IndexedLine {
  /** Position in the index (document order). */
  id: number;
  page: Page;
  words: Word[];
  /** Words joined by single spaces; `starts[i]` is where word i begins. */
  text: string;
  upper: string;
  starts: number[];
  x0: number;
  x1: number;
  y0: number;
  y1: number;
  row: number;
  /** Running header or footer repeated across pages. */
  repeated: boolean;
}

export interface DocIndex {
  lines: IndexedLine[];
  /** Line ids per row, left to right; rows in document order. */
  rows: number[][];
  dateContext: DateContext;
}

/** A line of the index; its id and row are set when it is placed. */
function indexLine(page: Page, sorted: Word[]): IndexedLine {
  const starts: number[] = [];
  let text = "";
  let [x0, x1, y0, y1] = [Infinity, -Infinity, Infinity, -Infinity];
  for (const word of sorted) {
    if (text) text += " ";
    starts.push(text.length);
    text += word.text;
    if (word.x < x0) x0 = word.x;
    if (word.x + word.width > x1) x1 = word.x + word.width;
    if (word.y < y0) y0 = word.y;
    if (word.y + word.height > y1) y1 = word.y + word.height;
  }
  if (page.source === "ocr") [y0, y1] = emBox(sorted);
  return { id: -1, page, words: sorted, text, upper: text.toUpperCase(), starts, x0, x1, y0, y1, row: -1, repeated: false };
}

function median(values: number[]): number {
  return [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;
}

/**
 * OCR boxes the ink of each word: caps, x-height, a speck or a bracket above
 * the letters. A text layer boxes the font's em on the baseline. The index sets
 * an OCR line the text layer's way, on its words' median baseline and as tall as
 * their font, so rows group by baseline and every distance in line heights
 * measures the same on a scan as on the digital page.
 */
function emBox(words: Word[]): [number, number] {
  const baseline = median(words.map((w) => w.y + w.height));
  return [baseline - median(words.map((w) => Math.max(w.fontSize, w.height))), baseline];
}

/** A word this short read with less confidence, standing alone, is a speck or a stamp's edge, not text ("a", "oe", "4"). */
const SPECK_CHARS = 2;
const SPECK_CONFIDENCE = 0.5;

/**
 * Whether an OCR line is one short, unsure word on its own: dust between a
 * label and its value would otherwise be taken as the value, or end it.
 */
function isSpeck(words: Word[]): boolean {
  return words.length === 1 && words[0]!.text.length <= SPECK_CHARS && words[0]!.confidence < SPECK_CONFIDENCE;
}

/** Splits a line's words where a wide gap shows two columns. */
function splitAtGaps(words: Word[]): Word[][] {
  // Ingesters give words left to right; only out-of-order input is copied and sorted.
  const sorted = isSortedByX(words) ? words : [...words].sort((a, b) => a.x - b.x);
  const groups: Word[][] = [];
  let from = 0;
  for (let i = 1; i < sorted.length; i++) {
    const prev = sorted[i - 1]!;
    if (sorted[i]!.x - (prev.x + prev.width) > COLUMN_GAP_EM * Math.max(prev.fontSize, prev.height, 1)) {
      groups.push(sorted.slice(from, i));
      from = i;
    }
  }
  if (from < sorted.length) groups.push(sorted.slice(from));
  return groups;
}

function isSortedByX(words: Word[]): boolean {
  for (let i = 1; i < words.length; i++) if (words[i]!.x < words[i - 1]!.x) return false;
  return true;
}

function markRepeated(lines: IndexedLine[]): void {
  const keys = lines.map((line) => line.upper.replace(/\d+/g, "#"));
  const pagesByKey = new Map<string, Set<number>>();
  lines.forEach((line, i) => {
    const pages = pagesByKey.get(keys[i]!) ?? new Set<number>();
    pages.add(line.page.number);
    pagesByKey.set(keys[i]!, pages);
  });
  lines.forEach((line, i) => {
    const inMargin = line.y0 < MARGIN_BAND * line.page.height || line.y1 > (1 - MARGIN_BAND) * line.page.height;
    line.repeated = inMargin && (pagesByKey.get(keys[i]!)?.size ?? 0) >= REPEAT_PAGES;
  });
}

/** Indexes the pages of one document (in order). */
export function indexDocument(pages: Page[]): DocIndex {
  const lines: IndexedLine[] = [];
  const rows: number[][] = [];
  for (const page of pages) {
    const pageLines = page.lines
      .flatMap((line) => splitAtGaps(line.words))
      .filter((words) => !(page.source === "ocr" && isSpeck(words)))
      .map((words) => indexLine(page, words))
      .sort((a, b) => a.y0 - b.y0 || a.x0 - b.x0);
    let rowLines: IndexedLine[] = [];
    const flush = () => {
      rowLines.sort((a, b) => a.x0 - b.x0);
      const ids: number[] = [];
      for (const line of rowLines) {
        line.id = lines.length;
        line.row = rows.length;
        lines.push(line);
        ids.push(line.id);
      }
      if (ids.length > 0) rows.push(ids);
      rowLines = [];
    };
    for (const line of pageLines) {
      const anchor = rowLines[0];
      const height = Math.max(1, line.y1 - line.y0);
      const sameRow = anchor && Math.abs((anchor.y0 + anchor.y1) / 2 - (line.y0 + line.y1) / 2) < height * SAME_ROW_TOLERANCE;
      if (!sameRow) flush();
      rowLines.push(line);
    }
    flush();
  }
  if (pages.length >= REPEAT_PAGES) markRepeated(lines);
  return { lines, rows, dateContext: buildDateContext(lines.map((l) => l.text)) };
}

/** The line right of `line` on its row, if any. */
export function lineRightOf(index: DocIndex, line: IndexedLine): IndexedLine | undefined {
  const row = index.rows[line.row]!;
  const at = row.indexOf(line.id);
  const next = row[at + 1];
  return next === undefined ? undefined : index.lines[next];
}

/** Typical line height of the document, for gap rules. */
export function lineHeight(line: IndexedLine): number {
  return Math.max(1, line.y1 - line.y0);
}
