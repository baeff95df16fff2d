/**
 * Reads the value of a label: on the same line after it, in the next column
 * of the same row, or below it in the same box or column (lines whose left
 * edge falls inside the label's column) until the next label or a gap.
 */
import { isBareTitle, valueAbove } from "./captions";
import { lineHeight, lineRightOf, type IndexedLine } from "./doc-index";
import { startsWithLabel, type Doc } from "./document";
import { CONFIDENCE, foundOf, partOf, type Found, type Part } from "./found";
import type { LabelHit } from "./labels";

/** A gap of more than this many line heights between two lines ends a box. */
const MAX_GAP_LINES = 1.8;
/** A row with this many titles is a grid header whose values may sit up to GRID_GAP_LINES below. */
const GRID_TITLES = 3;
const GRID_GAP_LINES = 7;
/** Values may start this many font sizes left of their label (centred or right-aligned cells). */
const COLUMN_SLACK_EM = 1.2;
/** A value below its label starts at most this many font sizes right of the label. */
const MAX_INDENT_EM = 8;
/** A line further right than this fraction of the page width is the value only when the label has nothing below it (see farRight). */
const MAX_RIGHT_GAP = 0.3;
/** The wrapped end of a long label in the label column ("Departure:", "Services:", or the bracket it opened: "address, country)"). */
const LABEL_TAIL = /^(?:[A-Za-z][A-Za-z ./&-]{0,30}\)?:|[a-z][a-z ,./&-]{0,30}\):?)$/;
/** A numbered box title in title case ("4. For official use") is never a value. */
const BOX_TITLE = /^\d{1,2}\.\s+[A-Z][a-z]/;

export interface ValueOptions {
  /** How many lines the value may span (1 for numbers, more for names, addresses, goods). */
  maxLines?: number;
}

function hitEnd(doc: Doc, hit: LabelHit): number {
  const next = doc.hitsByLine[hit.line.id]!.find((other) => other.start >= hit.valueStart);
  return next ? next.start : hit.line.text.length;
}

function hasText(line: IndexedLine, start: number, end: number): boolean {
  return /[A-Za-z0-9]/.test(line.text.slice(start, end));
}

/** The part of `line` before its first mid-line "Label:". */
function wholeValueLine(doc: Doc, line: IndexedLine): Part {
  const next = doc.hitsByLine[line.id]!.find((hit) => hit.start > 0 && hit.colon);
  return partOf(line, 0, next ? next.start : line.text.length);
}

/** Lines below `anchor` inside the column [x0, x1), until a label, a gap or the page end. */
export function linesBelow(
  doc: Doc,
  anchor: IndexedLine,
  x0: number,
  x1: number,
  maxLines: number,
  labelX0 = x0,
  firstGapLines = MAX_GAP_LINES,
): IndexedLine[] {
  const found: IndexedLine[] = [];
  const slack = COLUMN_SLACK_EM * lineHeight(anchor);
  const maxStart = Math.min(x1, x0 + MAX_INDENT_EM * lineHeight(anchor));
  // Where the text left of the anchor on its row ends (the label of a value set at the right), or the page's left edge.
  const besideEnd = Math.max(0, ...doc.rows[anchor.row]!.map((id) => doc.lines[id]!).filter((l) => l.x1 <= anchor.x0).map((l) => l.x1));
  // With labels in a column of their own, only that column can end the value.
  const ownColumn = labelX0 < x0 - slack;
  let last = anchor;
  for (let row = anchor.row + 1; row < doc.rows.length && found.length < maxLines; row++) {
    const ids = doc.rows[row]!;
    const first = doc.lines[ids[0]!]!;
    if (first.page !== anchor.page) break;
    if (first.y0 - last.y1 > (found.length === 0 ? firstGapLines : MAX_GAP_LINES) * lineHeight(last)) break;
    if (doc.headerRows.has(row)) break;
    const rowLines = ids.map((id) => doc.lines[id]!);
    const labelEnd = ownColumn ? x0 - slack : x1 - slack;
    if (rowLines.some((l) => l.x0 < labelEnd && l.x1 > labelX0 && startsWithLabel(doc, l))) break;
    const leftText = rowLines.filter((l) => l.x1 <= x0 - slack && l.x0 >= labelX0 - slack);
    if (ownColumn && leftText.some((l) => !LABEL_TAIL.test(l.text))) break;
    // A block set flush right (an address at the page edge) keeps its right edge, whatever its indent;
    // a block beside its label (the anchor is the block's first line, not the label's) may have a
    // longer line that starts left of the first, short of the label.
    const flushRight = (l: IndexedLine) => Math.abs(l.x1 - anchor.x1) < slack;
    const besideLabel = ownColumn && labelX0 < anchor.x0;
    const inColumn = (l: IndexedLine) => (l.x0 >= x0 - slack ? l.x0 < maxStart || flushRight(l) : besideLabel && flushRight(l) && l.x0 > besideEnd + slack);
    // A running header is no value, except under a label of that header ("Sender : BIC" over the bank's name on every page).
    const line = rowLines.find((l) => inColumn(l) && l.x0 < x1 && (!l.repeated || anchor.repeated));
    // "and address):" in lower case under "Consignee (name" is the label's wrapped tail, never its value.
    if (!line || /^[a-z]/.test(line.text) && LABEL_TAIL.test(line.text)) continue;
    found.push(line);
    last = line;
  }
  return found;
}

/** The right edge of the column a line starts: where the next line on its row begins, else the page edge. */
export function columnEnd(doc: Doc, line: IndexedLine): number {
  return lineRightOf(doc, line)?.x0 ?? line.page.width;
}

/** The x where the text at `offset` of `line` starts. */
export function xAt(line: IndexedLine, offset: number): number {
  let x = line.x0;
  line.starts.forEach((start, i) => {
    if (start <= offset) x = line.words[i]!.x;
  });
  return x;
}

/**
 * Whether `line` carries on a block of text that starts above it (the wrapped
 * end of a clause in the next box): on the row just above, a line with nothing
 * to its left starts at the same left edge. When the label also has a value
 * below it, such a line belongs to the block above, not to the label.
 */
function continuesAbove(doc: Doc, line: IndexedLine): boolean {
  if (line.row === 0) return false;
  const height = lineHeight(line);
  const rowAbove = doc.rows[line.row - 1]!.map((id) => doc.lines[id]!);
  return rowAbove.some(
    (above) =>
      above.page === line.page &&
      Math.abs(above.x0 - line.x0) < COLUMN_SLACK_EM * height &&
      line.y0 - above.y1 < height &&
      !rowAbove.some((other) => other.x1 <= above.x0),
  );
}

/**
 * Whether a bare label's value is the next line on its row, and how sure that
 * is. Near (within MAX_RIGHT_GAP of the page width) it is, unless the label's
 * box continues below it. Far (a label at mid-page, its value right-aligned at
 * the page edge, "Inv. No.:  ...  INV-1") it is only when the label ends in a
 * colon, has no
 * value below it (a stack of labels, each row its own field) and no bare box
 * title above the far line claims it as its own value.
 */
function pairedRight(doc: Doc, hit: LabelHit, right: IndexedLine): number | undefined {
  const { line } = hit;
  if (startsWithLabel(doc, right) || BOX_TITLE.test(right.text)) return undefined;
  // A line under the label with a value of its own flush with `right` is the next row of a list, not this label's value.
  const belowLabel = () => linesBelow(doc, line, xAt(line, hit.start), right.x0, 1).some((below) => !endsAlike(doc, below, right));
  if (right.x0 - line.x1 < MAX_RIGHT_GAP * line.page.width) {
    return continuesAbove(doc, right) && belowLabel() ? undefined : CONFIDENCE.right;
  }
  // Without a colon a far line is a caption's neighbour ("SELLER ... ACCEPTED BY THE BUYER"), not its value,
  // unless the row is one of a list: labels down one margin, values flush against the other.
  if (!(hit.colon || inLabelList(doc, line, right)) || belowLabel() || titledAbove(doc, right)) return undefined;
  return CONFIDENCE.farRight;
}

/** Whether the row of `line` holds, right of it, a line ending where `right` ends. */
function endsAlike(doc: Doc, line: IndexedLine, right: IndexedLine): boolean {
  const slack = COLUMN_SLACK_EM * lineHeight(line);
  return doc.rows[line.row]!.some((id) => {
    const other = doc.lines[id]!;
    return other.x0 > line.x1 && Math.abs(other.x1 - right.x1) < slack;
  });
}

/** Rows above or below a list row lie at most this many line heights apart. */
const LIST_ROW_GAP_LINES = 2.5;

/**
 * Whether the row of `label` and `right` is one row of a key-value list: on a
 * neighbouring row another label starts at the label's margin and a line
 * ends where `right` ends (values aligned on the right edge).
 */
function inLabelList(doc: Doc, label: IndexedLine, right: IndexedLine): boolean {
  const slack = COLUMN_SLACK_EM * lineHeight(label);
  const listRow = (row: number) => {
    const lines = (doc.rows[row] ?? []).map((id) => doc.lines[id]!);
    const first = lines[0];
    if (!first || first.page !== label.page || Math.abs(first.y0 - label.y0) > LIST_ROW_GAP_LINES * lineHeight(label)) return false;
    const head = lines.find((l) => Math.abs(l.x0 - label.x0) < slack && startsWithLabel(doc, l));
    return head !== undefined && endsAlike(doc, head, right);
  };
  return listRow(label.row - 1) || listRow(label.row + 1);
}

/** Whether the row just above `line` holds a bare box title over it (the line is that title's value). */
function titledAbove(doc: Doc, line: IndexedLine): boolean {
  if (line.row === 0) return false;
  const slack = COLUMN_SLACK_EM * lineHeight(line);
  return doc.rows[line.row - 1]!.some((id) => {
    const above = doc.lines[id]!;
    if (above.page !== line.page || line.y0 - above.y1 > MAX_GAP_LINES * lineHeight(above)) return false;
    if (above.x1 < line.x0 - slack || above.x0 > line.x1 + slack) return false;
    const hits = doc.hitsByLine[above.id]!;
    const last = hits[hits.length - 1];
    return last !== undefined && !hasText(above, last.valueStart, above.text.length);
  });
}

export function valueOfHit(doc: Doc, hit: LabelHit, options: ValueOptions = {}): Found | undefined {
  const maxLines = options.maxLines ?? 1;
  const { line } = hit;
  const end = hitEnd(doc, hit);
  if (hasText(line, hit.valueStart, end)) {
    const parts = [partOf(line, hit.valueStart, end)];
    if (maxLines > 1) {
      const x0 = xAt(line, hit.valueStart);
      const below = linesBelow(doc, line, x0, columnEnd(doc, line), maxLines - 1, xAt(line, hit.start));
      for (const next of below) parts.push(wholeValueLine(doc, next));
    }
    return foundOf(parts, CONFIDENCE.sameLine);
  }
  if (end < line.text.length) return undefined;
  // On a form of captions under their values, a bare title's value is above it; what is below belongs to the next caption.
  if (doc.captionsBelow && isBareTitle(hit)) return valueAbove(doc, doc.hitsByLine, doc.headerRows, hit, maxLines);
  const right = lineRightOf(doc, line);
  const rightConfidence = right && pairedRight(doc, hit, right);
  if (right && rightConfidence) {
    const parts = [wholeValueLine(doc, right)];
    if (maxLines > 1) {
      const below = linesBelow(doc, right, right.x0, columnEnd(doc, right), maxLines - 1, xAt(line, hit.start));
      for (const next of below) parts.push(wholeValueLine(doc, next));
    }
    return foundOf(parts, rightConfidence);
  }
  const x0 = xAt(line, hit.start);
  // Under a grid of titles (three or more on a row) the values may sit further down.
  const titles = doc.rows[line.row]!.filter((id) => startsWithLabel(doc, doc.lines[id]!)).length;
  const firstGap = titles >= GRID_TITLES ? GRID_GAP_LINES : MAX_GAP_LINES;
  const below = linesBelow(doc, line, x0, columnEnd(doc, line), maxLines, x0, firstGap);
  if (below.length === 0) return undefined;
  return foundOf(below.map((l) => wholeValueLine(doc, l)), CONFIDENCE.below);
}

/**
 * The first value, over the labels of `keys` in document order, that `accept`
 * takes (returns a normalised value for). Keys earlier in the list win.
 */
export function findLabelled<T>(
  doc: Doc,
  keys: readonly string[],
  accept: (found: Found, hit: LabelHit) => T | undefined,
  options: ValueOptions = {},
): { value: T; found: Found } | undefined {
  for (const key of keys) {
    for (const hit of doc.hitsByKey.get(key) ?? []) {
      if (doc.headerRows.has(hit.line.row)) continue;
      const found = valueOfHit(doc, hit, options);
      if (!found) continue;
      const value = accept(found, hit);
      if (value !== undefined) return { value, found };
    }
  }
  return undefined;
}

/**
 * A block under a label that holds a list (documents required): the rest of
 * the label's line and every following line indented past the label, or in
 * its value column, until a gap or a line back at the label's margin.
 */
export function readBlock(doc: Doc, hit: LabelHit, maxLines: number): Found | undefined {
  const { line } = hit;
  const parts: Part[] = [];
  if (hasText(line, hit.valueStart, line.text.length)) parts.push(partOf(line, hit.valueStart));
  const margin = xAt(line, hit.start) + COLUMN_SLACK_EM * lineHeight(line) / 2;
  let last = line;
  for (let id = line.id + 1; id < doc.lines.length && parts.length < maxLines; id++) {
    const next = doc.lines[id]!;
    if (next.page !== line.page || next.y0 - last.y1 > MAX_GAP_LINES * lineHeight(last) || next.x0 < margin) break;
    if (next.repeated) continue;
    parts.push(partOf(next));
    last = next;
  }
  return parts.length > 0 ? foundOf(parts, CONFIDENCE.below) : undefined;
}
