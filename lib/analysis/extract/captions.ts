/**
 * Captions printed under their values: forms whose boxes are filled in above a
 * small printed caption ("HAMBURG" over "Port of Loading"), signature blocks
 * with "(Name and title)" under the line. A bare title (no colon, nothing
 * after it) may be either such a caption or a box title over its value; one
 * document keeps one convention. It is read once per document from the bare
 * titles whose neighbours show their kind: a date above "Date" and a name
 * below it votes caption, the other way round votes title; a title with text
 * on one side only votes for that side. A preprinted form keeps each box's
 * room whatever fills it, so a caption's own value may stand far over it
 * while the next box's value is just under it: the value in the caption's own
 * box, however far up, still counts as text on that side.
 */
import { parseDate, type DateContext } from "../normalize/date";
import { normalizeCountry } from "../normalize/country";
import { parseWeightKg } from "../normalize/weight";
import { lineHeight, type DocIndex, type IndexedLine } from "./doc-index";
import { CONFIDENCE, foundOf, partOf, type Found } from "./found";
import type { LabelHit } from "./labels";

/** A gap of more than this many line heights between a caption and its value ends the value. */
const MAX_GAP_LINES = 1.8;
/**
 * A preprinted box keeps the room the form gives it (a party five lines): a
 * short value leaves blank space of up to this many caption heights over the
 * caption at the box's foot, while the next box's value stands just under it.
 */
const BOX_ROOM_LINES = 8;
/** A line this much smaller than the value under it is the previous row's caption, not more of the value. */
const CAPTION_RATIO = 0.9;
/** Votes the caption convention needs beyond the title convention's. */
const MIN_MARGIN = 2;

const DATE_KEYS: ReadonlySet<string> = new Set([
  "date", "invoice_date", "expiry_date", "latest_shipment_date", "shipped_on_board", "weighing_date", "inspection_date", "treatment_date", "fumigation_date",
]);
const REFERENCE_KEYS: ReadonlySet<string> = new Set([
  "bl_number", "invoice_number", "lc_number", "contract_number", "certificate_number", "packing_list_number", "booking_number", "reference_number", "document_number",
]);
const WEIGHT_KEYS: ReadonlySet<string> = new Set(["gross_weight", "net_weight", "tare_weight", "total_gross_weight", "total_net_weight"]);
const COUNTRY_KEYS: ReadonlySet<string> = new Set(["country_of_origin", "destination_country"]);
/** A reference: one token with a digit ("HKK-23-2023", "WC/887719"). */
const REFERENCE = /^[A-Z0-9][A-Z0-9/.-]*\d[A-Z0-9/.-]*$/i;

/** Whether `text` reads as the value of a title with `keys`; undefined when the keys' values have no recognisable form. */
function readsAsValue(keys: readonly string[], text: string, dates: DateContext): boolean | undefined {
  const trimmed = text.trim();
  if (keys.some((k) => DATE_KEYS.has(k))) return parseDate(trimmed, dates) !== undefined;
  if (keys.some((k) => REFERENCE_KEYS.has(k))) return REFERENCE.test(trimmed);
  if (keys.some((k) => WEIGHT_KEYS.has(k))) return parseWeightKg(trimmed) !== undefined;
  if (keys.some((k) => COUNTRY_KEYS.has(k))) return normalizeCountry(trimmed) !== undefined;
  return undefined;
}

/** A title alone on its line, without a colon: a caption under its value or a box title over it. */
export function isBareTitle(hit: LabelHit): boolean {
  return hit.start === 0 && !hit.colon && hit.valueStart >= hit.line.text.trimEnd().length && hit.keys.length > 0;
}

/**
 * Whether `line` (on a row above or below) stands over or under `caption`
 * rather than another line of the caption's row: the one it overlaps most,
 * or, overlapping none (a short value at the left of a box whose caption is
 * set at the right), the first one that ends at or right of where the line
 * ends, provided the line starts after that one's left neighbour ends.
 */
function belongsTo(index: DocIndex, line: IndexedLine, caption: IndexedLine): boolean {
  const captions = index.rows[caption.row]!.map((id) => index.lines[id]!);
  const overlap = (c: IndexedLine) => Math.min(line.x1, c.x1) - Math.max(line.x0, c.x0);
  let owner: IndexedLine | undefined;
  for (const c of captions) if (overlap(c) > 0 && (!owner || overlap(c) > overlap(owner))) owner = c;
  if (owner) return owner === caption;
  const right = captions.findIndex((c) => c.x1 >= line.x1);
  const at = right >= 0 ? right : captions.length - 1;
  return captions[at] === caption && (at === 0 || captions[at - 1]!.x1 <= line.x0);
}

/** The line of `row` that stands over or under `caption`, the one overlapping it most. */
function lineOf(index: DocIndex, row: number, caption: IndexedLine): IndexedLine | undefined {
  const overlap = (l: IndexedLine) => Math.min(l.x1, caption.x1) - Math.max(l.x0, caption.x0);
  let best: IndexedLine | undefined;
  for (const id of index.rows[row] ?? []) {
    const l = index.lines[id]!;
    if (l.page !== caption.page || l.repeated || !belongsTo(index, l, caption)) continue;
    if (!best || overlap(l) > overlap(best)) best = l;
  }
  return best;
}

/** The vertical gap between `caption` and a line above (-1) or below (+1) it. */
const gapTo = (caption: IndexedLine, line: IndexedLine, direction: -1 | 1) => (direction < 0 ? caption.y0 - line.y1 : line.y0 - caption.y1);

/**
 * The nearest line in the caption's cell above (-1) or below (+1), within
 * `gapLines` caption heights; rows with nothing in the cell (another column's
 * lines) are passed.
 */
function neighbour(index: DocIndex, caption: IndexedLine, direction: -1 | 1, gapLines = MAX_GAP_LINES): IndexedLine | undefined {
  const limit = gapLines * lineHeight(caption);
  for (let row = caption.row + direction; index.rows[row]; row += direction) {
    const rowLines = index.rows[row]!.map((id) => index.lines[id]!);
    if (rowLines[0]!.page !== caption.page || rowLines.every((l) => gapTo(caption, l, direction) > limit)) return undefined;
    const line = lineOf(index, row, caption);
    if (line) return gapTo(caption, line, direction) <= limit ? line : undefined;
  }
  return undefined;
}

/** Whether the document prints its bare titles under their values. */
export function detectCaptionsBelow(index: DocIndex, hitsByLine: readonly LabelHit[][]): boolean {
  let captions = 0;
  let titles = 0;
  const isTitleLine = (line: IndexedLine) => hitsByLine[line.id]!.some((h) => h.start === 0);
  for (const hits of hitsByLine) {
    const hit = hits[0];
    if (!hit || !isBareTitle(hit)) continue;
    const above = neighbour(index, hit.line, -1);
    const below = neighbour(index, hit.line, 1);
    // Across a preprinted box's blank room: a caption at the foot of a stack of boxes has its value high above it.
    const aboveInBox = neighbour(index, hit.line, -1, BOX_ROOM_LINES);
    // Only text in larger type than the title may be its value: a caption is printed smaller than what is filled in.
    const valueLike = (line: IndexedLine | undefined) => (line && !isTitleLine(line) && CAPTION_RATIO * lineHeight(line) >= lineHeight(hit.line) ? line : undefined);
    const aboveValue = valueLike(above);
    const belowValue = valueLike(below);
    // Text on one side only votes for that side; a value up in the title's own box is text on that side, however far.
    if (valueLike(aboveInBox) && !below) captions++;
    else if (belowValue && !aboveInBox) titles++;
    else if (aboveValue && belowValue) {
      const up = readsAsValue(hit.keys, aboveValue.text, index.dateContext);
      const down = readsAsValue(hit.keys, belowValue.text, index.dateContext);
      if (up === true && down === false) captions++;
      else if (down === true && up === false) titles++;
    }
  }
  return captions >= titles + MIN_MARGIN;
}

/**
 * The value over a caption: the lines above it in its cell, nearest first,
 * until a gap, another title, a table header or a line in the captions' small
 * type; returned top to bottom.
 */
export function valueAbove(index: DocIndex, hitsByLine: readonly LabelHit[][], headerRows: ReadonlySet<number>, hit: LabelHit, maxLines: number): Found | undefined {
  const caption = hit.line;
  const lines: IndexedLine[] = [];
  let last = caption;
  for (let row = caption.row - 1; row >= 0 && lines.length < maxLines; row--) {
    const rowLines = index.rows[row]!.map((id) => index.lines[id]!);
    if (headerRows.has(row) || rowLines[0]!.page !== caption.page) break;
    const line = lineOf(index, row, caption);
    // Up to the value, the box's blank room may stand between; inside the value, lines follow closely.
    const gapLines = lines.length === 0 ? BOX_ROOM_LINES : MAX_GAP_LINES;
    // A row with nothing over the caption (a taller neighbour's value) is passed, until the gap above is too wide.
    if (!line) {
      if (rowLines.some((l) => last.y0 - l.y1 > gapLines * lineHeight(last))) break;
      continue;
    }
    if (last.y0 - line.y1 > gapLines * lineHeight(last)) break;
    if (hitsByLine[line.id]!.some((h) => h.start === 0)) break;
    if (lines.length > 0 && lineHeight(line) < CAPTION_RATIO * lineHeight(lines[lines.length - 1]!)) break;
    if (lines.length === 0 && lineHeight(line) < CAPTION_RATIO * lineHeight(caption)) break;
    lines.unshift(line);
    last = line;
  }
  if (lines.length === 0) return undefined;
  // Across a box's blank room the value is a block of its own: one that runs on from a label's line
  // ("For and on behalf of SELLER LTD / BUYER LLC" over a signature's caption) is that label's value.
  const overRoom = caption.y0 - lines[lines.length - 1]!.y1 > MAX_GAP_LINES * lineHeight(caption);
  const onTop = overRoom ? neighbour(index, lines[0]!, -1) : undefined;
  if (onTop && hitsByLine[onTop.id]!.some((h) => h.start === 0 && !isBareTitle(h))) return undefined;
  return foundOf(lines.map((l) => partOf(l)), CONFIDENCE.below);
}
