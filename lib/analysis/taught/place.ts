/**
 * Where a value sits on a layout, and reading a value from there. A checker's
 * corrected value is looked for in the document's words (as the field's
 * normaliser reads them, so "49,080.000 KGS" is 49080); its place is the box of
 * those words, measured from the nearest label (its anchor: a value below an
 * address that runs one line longer moves down with its label), and the word
 * printed before and after it on its line, if any. On the next document of the
 * layout the anchor is found again, the box moved with it, and the words that
 * start there — after the word printed before the taught value, to the end of
 * their line or the word printed after it — are read with the same normaliser.
 */
import { detectDecimalComma, parseAmount } from "../normalize/amount";
import { findContainerNumbers } from "../normalize/container";
import { findCountryIn, normalizeCountry } from "../normalize/country";
import { normalizeCurrency } from "../normalize/currency";
import { buildDateContext, parseDate } from "../normalize/date";
import { normalizeIncoterm } from "../normalize/incoterms";
import { normalizePort } from "../normalize/port";
import { parseCount, parsePackages } from "../normalize/quantity";
import { normalizeFreightTerms } from "../normalize/terms";
import { cleanValue } from "../normalize/text";
import { parseVolumeCbm } from "../normalize/volume";
import { parseWeightKg } from "../normalize/weight";
import type { FieldKind } from "../schema";
import type { Box, Line, Page, Word } from "../types";
import { isLabelText, labelPart } from "./fingerprint";

/** Where a taught value sits: the page of the document (0-based), its box as fractions, and how many lines it spans. */
export interface TaughtPlace {
  page: number;
  box: Box;
  lines: number;
  /** The nearest label's text and the start of its line (fractions) when the value was taught. */
  anchor?: { text: string; x: number; y: number };
  /** The word printed after the value on its line (a label that follows it), where reading stops. */
  stop?: string;
  /** The word printed just before the value on its line ("/" in "MV AURORA / 839W"), after which reading starts. */
  lead?: string;
}

/** A value spans at most this many words of a line and this many lines (an address). */
const MAX_SPAN_WORDS = 16;
const MAX_SPAN_LINES = 4;
/** A word starts "at the same left edge" within this share of the page's width. */
const LEFT_EDGE_TOLERANCE = 0.015;

interface Reading {
  dateContext: ReturnType<typeof buildDateContext>;
  decimalComma: boolean;
}

function readingOf(pages: readonly Page[]): Reading {
  const texts = pages.flatMap((p) => p.lines.map((l) => l.text));
  return { dateContext: buildDateContext(texts), decimalComma: detectDecimalComma(texts) };
}

/** The field's value in `text` as the engine writes it, or undefined when the text holds none. */
function normalizeAs(field: string, kind: FieldKind, text: string, reading: Reading): unknown {
  const clean = cleanValue(text);
  if (!clean) return undefined;
  if (kind === "number") {
    if (field.endsWith("_kg")) return parseWeightKg(clean, undefined, reading.decimalComma);
    if (field.endsWith("_cbm")) return parseVolumeCbm(clean, 1, reading.decimalComma);
    if (field === "number_of_packages") return parsePackages(clean)?.count ?? parseCount(clean);
    return parseAmount(clean, reading.decimalComma);
  }
  if (kind === "date") return parseDate(clean, reading.dateContext);
  if (kind === "string[]") {
    if (field === "container_numbers") {
      const found = findContainerNumbers(clean).map((m) => m.number);
      return found.length ? found : undefined;
    }
    return [clean];
  }
  if (typeof kind === "object" && "enum" in kind) {
    if (field === "freight_terms") return normalizeFreightTerms(clean);
    const lower = clean.toLowerCase();
    return kind.enum.find((value) => lower.includes(value));
  }
  if (typeof kind === "object") return undefined;
  if (field.startsWith("port_") || field.startsWith("place_of_")) return normalizePort(clean) ?? clean;
  if (field === "currency") return normalizeCurrency(clean);
  if (field === "incoterms" || field === "incoterm") return normalizeIncoterm(clean) ?? clean;
  if (field.includes("country")) return normalizeCountry(clean) ?? findCountryIn(clean);
  return clean;
}

/** Values compared as their letters, digits and decimal points (case, spacing and punctuation aside). */
const comparable = (value: unknown) => (value === undefined ? "" : JSON.stringify(value).toUpperCase().replace(/[^A-Z0-9.[\]]+/g, ""));

function boxOf(page: Page, words: readonly Word[]): Box {
  const x0 = Math.min(...words.map((w) => w.x));
  const y0 = Math.min(...words.map((w) => w.y));
  const x1 = Math.max(...words.map((w) => w.x + w.width));
  const y1 = Math.max(...words.map((w) => w.y + w.height));
  const fx = (v: number) => Math.min(1, Math.max(0, v / page.width));
  const fy = (v: number) => Math.min(1, Math.max(0, v / page.height));
  return [fx(x0), fy(y0), fx(x1), fy(y1)];
}

const spanText = (words: readonly Word[]) => words.map((w) => w.text).join(" ");

/**
 * The place of `value` on a document: the fewest words of one line, or the
 * words from one left edge down a few lines, that read as `value`.
 */
export function locateValue(pages: readonly Page[], field: string, kind: FieldKind, value: unknown): TaughtPlace | undefined {
  const reading = readingOf(pages);
  const wanted = comparable(value);
  if (!wanted) return undefined;
  for (const [index, page] of pages.entries()) {
    let best: { words: Word[]; lines: number } | undefined;
    const consider = (words: Word[], lines: number) => {
      if (best && best.lines <= lines && best.words.length <= words.length) return;
      if (comparable(normalizeAs(field, kind, spanText(words), reading)) === wanted) best = { words, lines };
    };
    for (const [at, line] of page.lines.entries()) {
      const words = line.words.slice(0, MAX_SPAN_WORDS * 2);
      for (let start = 0; start < words.length; start++) {
        for (let end = start + 1; end <= Math.min(words.length, start + MAX_SPAN_WORDS); end++) consider(words.slice(start, end), 1);
        // A value over several lines: from this word to the end of its line and the lines below that start at its left edge.
        const below = linesBelow(page, page.lines, at, words[start]!.x, MAX_SPAN_LINES - 1);
        let span = words.slice(start);
        for (const [k, next] of below.entries()) {
          span = [...span, ...next.words.filter((w) => w.x >= words[start]!.x - LEFT_EDGE_TOLERANCE * page.width)];
          consider(span, k + 2);
        }
      }
    }
    if (best) {
      const box = boxOf(page, best.words);
      const first = page.lines.find((l) => l.words.includes(best!.words[0]!))!;
      const last = best.words.at(-1)!;
      const lastLine = page.lines.find((l) => l.words.includes(last))!;
      const stop = lastLine.words[lastLine.words.indexOf(last) + 1]?.text;
      const lead = first.words[first.words.indexOf(best.words[0]!) - 1]?.text;
      const anchor = anchorOf(page, first, best.words, box);
      return { page: index, box, lines: best.lines, ...(anchor ? { anchor } : {}), ...(stop ? { stop } : {}), ...(lead && !lead.endsWith(":") ? { lead } : {}) };
    }
  }
  return undefined;
}

/** A label more than this far from its value (a share of the page, rows counting double) anchors nothing. */
const MAX_ANCHOR_DISTANCE = 0.35;

/**
 * The value's label: its own line's label part when the value follows it on
 * the line ("Vessel: MV AURORA"), else the nearest short label line not part
 * of the value (same row counts most: a row's label is beside its value).
 */
function anchorOf(page: Page, valueLine: Line, words: readonly Word[], box: Box): TaughtPlace["anchor"] {
  const at = (line: Line) => ({ x: line.x / page.width, y: line.y / page.height });
  const own = valueLine.words.indexOf(words[0]!);
  const ownLabel = labelPart(valueLine.text);
  if (own > 0 && ownLabel?.endsWith(":") && valueLine.words.slice(0, own).some((w) => w.text.endsWith(":"))) return { text: ownLabel, ...at(valueLine) };
  let best: { line: Line; distance: number } | undefined;
  for (const line of page.lines) {
    if (line.words.some((w) => words.includes(w))) continue;
    const text = labelPart(line.text);
    if (!text || line.words.length > 5 || !isLabelText(text)) continue;
    const { x, y } = at(line);
    const distance = Math.hypot(x - box[0], 2 * (y - box[1]));
    if (distance <= MAX_ANCHOR_DISTANCE && (!best || distance < best.distance)) best = { line, distance };
  }
  return best ? { text: labelPart(best.line.text)!, ...at(best.line) } : undefined;
}

/** How far the layout moved the anchor on this page (fractions), or none when the anchor is not found near its place. */
function anchorShift(page: Page, anchor: TaughtPlace["anchor"]): [number, number] {
  if (!anchor) return [0, 0];
  let best: [number, number] | undefined;
  for (const line of page.lines) {
    if (labelPart(line.text) !== anchor.text) continue;
    const shift: [number, number] = [line.x / page.width - anchor.x, line.y / page.height - anchor.y];
    if (Math.abs(shift[0]) > 0.1 || Math.abs(shift[1]) > 0.2) continue;
    if (!best || Math.hypot(...shift) < Math.hypot(...best)) best = shift;
  }
  return best ?? [0, 0];
}

/** The lines under line `at` whose words start at the left edge `x`, one after another without a gap of more than a line. */
function linesBelow(page: Page, lines: readonly Line[], at: number, x: number, count: number): Line[] {
  const out: Line[] = [];
  let previous = lines[at]!;
  const tolerance = LEFT_EDGE_TOLERANCE * page.width;
  const candidates = lines.filter((l) => l.y > previous.y).sort((a, b) => a.y - b.y);
  for (const line of candidates) {
    if (out.length >= count) break;
    if (line.y - (previous.y + previous.height) > previous.height * 1.5) break;
    if (!line.words.some((w) => Math.abs(w.x - x) <= tolerance)) continue;
    out.push(line);
    previous = line;
  }
  return out;
}

/** What was read at a taught place. */
export interface PlacedReading {
  value: unknown;
  page: Page;
  words: Word[];
}

/**
 * The value at `place` on a document of the layout: the place moved with its
 * anchor; on each of its rows, the line that reaches its left edge (the
 * nearest, when columns share the row), from that edge — or from the line's
 * start when the text runs on into it from the left without a label, as a
 * longer right-aligned value does — to the end of the line or the taught stop word.
 */
export function readAtPlace(pages: readonly Page[], place: TaughtPlace, field: string, kind: FieldKind): PlacedReading | undefined {
  const page = pages[place.page];
  if (!page) return undefined;
  const [dx, dy] = anchorShift(page, place.anchor);
  const [x0, y0, x1, y1] = [(place.box[0] + dx) * page.width, (place.box[1] + dy) * page.height, (place.box[2] + dx) * page.width, (place.box[3] + dy) * page.height];
  const rowHeight = (y1 - y0) / Math.max(1, place.lines);
  const tolerance = LEFT_EDGE_TOLERANCE * page.width;
  const candidates = page.lines.flatMap((line) => {
    const middle = line.y + line.height / 2;
    if (middle < y0 - rowHeight / 2 || middle > y1 + rowHeight / 2) return [];
    const inside = line.words.findIndex((w) => w.x + w.width / 2 >= x0 - tolerance);
    if (inside < 0 || line.words[inside]!.x > x1) return [];
    const before = line.words.slice(0, inside);
    const colon = before.findLastIndex((w) => w.text.endsWith(":"));
    const led = place.lead === undefined ? -1 : before.findLastIndex((w) => w.text === place.lead);
    const gap = inside > 0 ? line.words[inside]!.x - (before.at(-1)!.x + before.at(-1)!.width) : 0;
    const from = Math.max(colon, led) >= 0 ? Math.max(colon, led) + 1 : gap > line.fontSize ? inside : 0;
    const words: Word[] = [];
    for (const word of line.words.slice(from)) {
      if (words.length > 0 && (word.text === place.stop || word.text.endsWith(":"))) break;
      words.push(word);
    }
    return words.length ? [{ line, words }] : [];
  });
  // One line per row: the one starting nearest the taught left edge.
  const rows = new Map<number, { line: Line; words: Word[] }>();
  for (const candidate of candidates) {
    const row = Math.round((candidate.line.y - y0) / Math.max(rowHeight, 1));
    const held = rows.get(row);
    if (!held || Math.abs(candidate.words[0]!.x - x0) < Math.abs(held.words[0]!.x - x0)) rows.set(row, candidate);
  }
  const words = [...rows.entries()].sort(([a], [b]) => a - b).slice(0, place.lines).flatMap(([, row]) => row.words);
  if (words.length === 0) return undefined;
  const value = normalizeAs(field, kind, spanText(words), readingOf(pages));
  return value === undefined ? undefined : { value, page, words };
}

export { boxOf };
