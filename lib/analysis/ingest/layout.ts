import type { Line, Word } from "../types";

/**
 * Words → lines → reading order. Pure geometry, shared by every ingester that
 * yields positioned words (PDF text layer, OCR). Coordinates: page units, origin top-left.
 */

/** Words whose baselines differ by less than this fraction of the font size share a row. */
const BASELINE_TOLERANCE = 0.45;
/** A horizontal gap wider than this many font sizes ends a line (two columns of a form). */
const LINE_GAP_FACTOR = 1.6;
/** A vertical gutter must be at least this many median font sizes wide to separate columns. */
const GUTTER_FACTOR = 1.5;
/** A vertical white band at least this many median line heights tall separates blocks. */
const BLOCK_GAP_FACTOR = 1.2;
/** Below this share of left-column lines having a same-row partner on the right, the sides are columns, not a table. */
const TABLE_ALIGNMENT_SHARE = 0.5;
/** Each side of a column cut must hold at least this many lines. */
const MIN_COLUMN_LINES = 2;
/** A word this much larger or smaller than its row's prevailing size may be overprinted (see overprintedWords). */
const OVERPRINT_SIZE_RATIO = 1.2;
/** Ink overlapping a neighbour by this share of the narrower word is two layers of print. */
const OVERLAP_SHARE = 0.3;
/** Room for a word between two others needs its width plus about one space on each side. */
const SPACE_EM = 0.5;
/** Recursion guard for the XY cut: real pages never nest deeper. */
const MAX_CUT_DEPTH = 12;

/** Groups words into lines: same baseline within tolerance, split at gaps much wider than a space. */
export function groupLines(words: Word[]): Line[] {
  const sorted = words.filter((w) => w.text.length > 0).sort((a, b) => baselineOf(a) - baselineOf(b) || a.x - b.x);
  const lines: Line[] = [];
  let row: Word[] = [];
  let rowBaseline = 0;
  for (const word of sorted) {
    const base = baselineOf(word);
    if (row.length > 0 && Math.abs(base - rowBaseline) > BASELINE_TOLERANCE * Math.max(word.fontSize, 1)) {
      pushRow(row, lines);
      row = [];
    }
    if (row.length === 0) rowBaseline = base;
    row.push(word);
  }
  pushRow(row, lines);
  return lines;
}

function baselineOf(word: Word): number {
  return word.y + word.height;
}

function pushRow(row: Word[], out: Line[]): void {
  if (row.length === 0) return;
  row.sort((a, b) => a.x - b.x);
  // A stamp's letters become lines of their own, after the row, so "ANCHOR MARINE & CARGO SURVEYS" reads whole.
  const overprinted = overprintedWords(row);
  if (overprinted.size > 0) row = row.filter((w) => !overprinted.has(w));
  let current: Word[] = [];
  for (const word of row) {
    const last = current[current.length - 1];
    if (last && word.x - (last.x + last.width) > LINE_GAP_FACTOR * Math.max(last.fontSize, word.fontSize)) {
      out.push(makeLine(current));
      current = [];
    }
    current.push(word);
  }
  if (current.length > 0) out.push(makeLine(current));
  for (const word of overprinted) out.push(makeLine([word]));
}

/**
 * Words of another layer printed over a line (a stamp or a signature across a
 * name): their size differs from the row's prevailing size by
 * OVERPRINT_SIZE_RATIO or more, and their ink overlaps a word of that size or
 * they sit inside a run of such words with no room of their own. Labels and
 * values set in two sizes stand side by side and are kept.
 */
function overprintedWords(row: Word[]): Set<Word> {
  const found = new Set<Word>();
  if (row.length < 2) return found;
  const prevailing = prevailingSize(row);
  const isPrevailing = (w: Word) => sizeRatio(w.fontSize, prevailing) < OVERPRINT_SIZE_RATIO;
  row.forEach((word, i) => {
    if (isPrevailing(word)) return;
    const before = row.slice(0, i).reverse().find(isPrevailing);
    const after = row.slice(i + 1).find(isPrevailing);
    const overlaps = (other: Word | undefined) =>
      other !== undefined && Math.min(word.x + word.width, other.x + other.width) - Math.max(word.x, other.x) > OVERLAP_SHARE * Math.min(word.width, other.width);
    const squeezed = before !== undefined && after !== undefined && after.x - (before.x + before.width) < word.width + SPACE_EM * prevailing;
    if (overlaps(before) || overlaps(after) || squeezed) found.add(word);
  });
  return found;
}

/** The font size carrying most characters on a row. */
function prevailingSize(row: Word[]): number {
  const chars = new Map<number, number>();
  for (const w of row) {
    const size = Math.round(w.fontSize * 2) / 2;
    chars.set(size, (chars.get(size) ?? 0) + w.text.length);
  }
  return [...chars].sort((a, b) => b[1] - a[1])[0]![0];
}

function sizeRatio(a: number, b: number): number {
  return Math.max(a, b) / Math.max(Math.min(a, b), 0.1);
}

/** Builds a line from words already in left-to-right order. */
export function makeLine(words: Word[]): Line {
  let x0 = Infinity;
  let y0 = Infinity;
  let x1 = -Infinity;
  let y1 = -Infinity;
  let fontSize = 0;
  for (const w of words) {
    x0 = Math.min(x0, w.x);
    y0 = Math.min(y0, w.y);
    x1 = Math.max(x1, w.x + w.width);
    y1 = Math.max(y1, w.y + w.height);
    fontSize = Math.max(fontSize, w.fontSize);
  }
  return { text: words.map((w) => w.text).join(" "), words, x: x0, y: y0, width: x1 - x0, height: y1 - y0, fontSize };
}

/**
 * Orders lines for reading with a recursive XY cut: a region that is clearly two
 * columns (a vertical gutter crossed by no line, and the sides not aligned row by
 * row as a table's cells are) is read column by column; otherwise it is cut at
 * wide vertical white bands and finally read row by row, left to right.
 */
export function orderLines(lines: Line[]): Line[] {
  if (lines.length < 2) return lines.slice();
  const median = medianFontSize(lines);
  return cutRegion(lines, median, 0);
}

function medianFontSize(lines: Line[]): number {
  const sizes = lines.map((l) => l.fontSize).sort((a, b) => a - b);
  return sizes[Math.floor(sizes.length / 2)] ?? 10;
}

/** `isBlock`: the region is one block of a white-band cut, which cutting again would leave whole. */
function cutRegion(lines: Line[], median: number, depth: number, isBlock = false): Line[] {
  if (lines.length < 2 * MIN_COLUMN_LINES || depth > MAX_CUT_DEPTH) return readRows(lines);
  const columns = splitColumns(lines, median);
  if (columns) return columns.flatMap((part) => cutRegion(part, median, depth + 1));
  if (isBlock) return readRows(lines);
  const blocks = splitBlocks(lines, median);
  if (blocks.length > 1) return blocks.flatMap((part) => cutRegion(part, median, depth + 1, true));
  return readRows(lines);
}

/** Finds the widest vertical gutter no line crosses; returns the two sides when they read as columns. */
function splitColumns(lines: Line[], median: number): [Line[], Line[]] | undefined {
  const byX = lines.slice().sort((a, b) => a.x - b.x);
  let reach = byX.length > 0 ? byX[0]!.x + byX[0]!.width : 0;
  let cut = 0;
  let widest = -Infinity;
  for (let i = 1; i < byX.length; i++) {
    const line = byX[i]!;
    const gap = line.x - reach;
    if (gap >= GUTTER_FACTOR * median && gap > widest) {
      cut = (reach + line.x) / 2;
      widest = gap;
    }
    reach = Math.max(reach, line.x + line.width);
  }
  if (widest === -Infinity) return undefined;
  const left = lines.filter((l) => l.x + l.width <= cut);
  const right = lines.filter((l) => l.x >= cut);
  if (left.length < MIN_COLUMN_LINES || right.length < MIN_COLUMN_LINES) return undefined;
  return alignedShare(left, right) < TABLE_ALIGNMENT_SHARE ? [left, right] : undefined;
}

/** Share of the smaller side's lines that have a partner on the same row on the other side. */
function alignedShare(left: Line[], right: Line[]): number {
  const [few, many] = left.length <= right.length ? [left, right] : [right, left];
  const bases = many.map((l) => l.y + l.height).sort((a, b) => a - b);
  let aligned = 0;
  for (const line of few) {
    const base = line.y + line.height;
    const tolerance = BASELINE_TOLERANCE * line.fontSize;
    if (hasNear(bases, base, tolerance)) aligned++;
  }
  return aligned / few.length;
}

/** Binary search in sorted values for one within tolerance of target. */
function hasNear(sorted: number[], target: number, tolerance: number): boolean {
  let lo = 0;
  let hi = sorted.length - 1;
  while (lo <= hi) {
    const mid = (lo + hi) >> 1;
    const value = sorted[mid]!;
    if (Math.abs(value - target) <= tolerance) return true;
    if (value < target) lo = mid + 1;
    else hi = mid - 1;
  }
  return false;
}

/** Cuts at vertical white bands taller than a paragraph gap. */
function splitBlocks(lines: Line[], median: number): Line[][] {
  const sorted = lines.slice().sort((a, b) => a.y - b.y);
  const blocks: Line[][] = [];
  let current: Line[] = [];
  let bottom = -Infinity;
  for (const line of sorted) {
    if (current.length > 0 && line.y - bottom > BLOCK_GAP_FACTOR * median) {
      blocks.push(current);
      current = [];
    }
    current.push(line);
    bottom = Math.max(bottom, line.y + line.height);
  }
  if (current.length > 0) blocks.push(current);
  return blocks;
}

/** Top to bottom by row band (lines whose baselines match), left to right within a band. */
function readRows(lines: Line[]): Line[] {
  const sorted = lines.slice().sort((a, b) => a.y + a.height - (b.y + b.height));
  const out: Line[] = [];
  let band: Line[] = [];
  let bandBase = 0;
  for (const line of sorted) {
    const base = line.y + line.height;
    if (band.length > 0 && Math.abs(base - bandBase) > BASELINE_TOLERANCE * line.fontSize) {
      out.push(...band.sort((a, b) => a.x - b.x));
      band = [];
    }
    if (band.length === 0) bandBase = base;
    band.push(line);
  }
  out.push(...band.sort((a, b) => a.x - b.x));
  return out;
}
