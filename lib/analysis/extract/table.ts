/**
 * Tables found by their header row: a row naming at least two known columns
 * (one of them numeric). Columns take the x-span of their header words; each
 * word below goes to the column it overlaps most (or the nearest). A row
 * opens a new item when it fills a numeric column the current item already
 * has; other rows continue the item (wrapped descriptions). A TOTAL row ends
 * the table and gives its totals.
 */
import { lineHeight, type IndexedLine } from "./doc-index";
import { startsWithLabel, type Doc } from "./document";
import { foundOf, partOf, type Found, type Part } from "./found";
import { type Column, type ColumnKind, headerColumns, NUMERIC_KINDS } from "./table-header";

export type { ColumnKind };

const TOTAL_ROW = /^(?:GRAND\s+)?(?:SUB-?\s?)?TOTALS?\b|^SAY\b/i;
/** A table ends at a vertical gap of this many line heights. */
const MAX_ROW_GAP_LINES = 3;
/** The first row may sit further below a boxed header. */
const MAX_FIRST_ROW_GAP_LINES = 7;
const MAX_ROWS = 200;
/** Numeric cells a row on the next page needs to continue the table. */
const MIN_CONTINUED_NUMBERS = 2;

export type Cells = Partial<Record<ColumnKind, Found>>;

export interface Table {
  headerRow: number;
  columns: Column[];
  items: Cells[];
  totals?: Cells;
}

interface RowWord {
  line: IndexedLine;
  index: number;
}

function rowWords(doc: Doc, row: number): RowWord[] {
  return doc.rows[row]!.flatMap((id) => doc.lines[id]!.words.map((_, index) => ({ line: doc.lines[id]!, index })));
}

function columnOf(columns: Column[], x0: number, x1: number): Column {
  let best = columns[0]!;
  let bestScore = -Infinity;
  for (const column of columns) {
    const overlap = Math.min(x1, column.x1) - Math.max(x0, column.x0);
    const score = overlap > 0 ? overlap : -Math.max(column.x0 - x1, x0 - column.x1);
    if (score > bestScore) [best, bestScore] = [column, score];
  }
  return best;
}

/** A line reaching over this share of a second column title spans two cells. */
const SPANNED_SHARE = 0.5;
/** A line over this many column titles is prose, not a cell. */
const PROSE_TITLES = 3;

function spannedTitles(columns: Column[], line: IndexedLine): number {
  return columns.filter((c) => Math.min(line.x1, c.x1) - Math.max(line.x0, c.x0) > SPANNED_SHARE * (c.x1 - c.x0)).length;
}

const NUMERIC_WORD = /^[-−(]?[$€£¥]?\d[\d.,]*\)?$/;

/** A specification limit's qualifier, printed before its number ("Max 14.0", "≤ 0.5", "Typical 1.5"). */
const LIMIT_QUALIFIER = /^(?:MAX(?:IMUM)?|MIN(?:IMUM)?|TYP(?:ICAL)?|NMT|NLT|[<>≤≥]=?)\.?:?$/i;
/** A currency printed before its amount ("US$ 397,113.91", "US DOLLARS 11,784.00") goes where the amount goes. */
const CURRENCY_WORD = /^(?:[A-Z]{3}|US|U\.S\.|[A-Z]{0,2}\$|€|£|¥|DOLLARS?|EUROS?)$/;
/** A unit right after a number ("12.5 %", "0.3 mg/kg", "26,000 MT") goes with the number, not with the text after it. */
const UNIT_WORD = /^(?:%|‰|°[CF]?|[A-Za-z]{1,5}(?:\/[A-Za-z0-9]{1,4})?\.?)$/;
/** Words further apart than this many line heights are two cells even inside one line. */
const CELL_GAP_HEIGHTS = 0.8;

/**
 * The column of each word of a line. A line holding at most one number, set
 * with ordinary word spaces and lying under one title is one cell (its words
 * stay together even where they reach a little under the next title). Other
 * lines hold several cells: a
 * run of words closely spaced text ("Free Fatty Acid") is one cell placed by
 * its whole span, so a long name is never split between columns; numbers and
 * their units are placed word by word, and a limit's qualifier ("Max") or a
 * currency goes where its number goes.
 */
function kindsOfLine(columns: Column[], line: IndexedLine): ColumnKind[] {
  const { words } = line;
  const numeric = words.map((w) => NUMERIC_WORD.test(w.text));
  const gap = CELL_GAP_HEIGHTS * (line.y1 - line.y0);
  const spaced = words.some((w, i) => i > 0 && w.x - (words[i - 1]!.x + words[i - 1]!.width) > gap);
  if (numeric.filter(Boolean).length <= 1 && !spaced && spannedTitles(columns, line) <= 1) return words.map(() => columnOf(columns, line.x0, line.x1).kind);
  const kinds: ColumnKind[] = words.map((w) => columnOf(columns, w.x, w.x + w.width).kind);
  const leadsNumber = (i: number) => LIMIT_QUALIFIER.test(words[i]!.text) || CURRENCY_WORD.test(words[i]!.text);
  const isText = (i: number) => !numeric[i] && !leadsNumber(i) && !(i > 0 && numeric[i - 1] && UNIT_WORD.test(words[i]!.text));
  for (let i = 0; i < words.length; ) {
    let j = i + 1;
    if (isText(i)) while (j < words.length && isText(j) && words[j]!.x - (words[j - 1]!.x + words[j - 1]!.width) <= gap) j++;
    if (j - i > 1) {
      const kind = columnOf(columns, words[i]!.x, words[j - 1]!.x + words[j - 1]!.width).kind;
      for (let k = i; k < j; k++) kinds[k] = kind;
    }
    i = j;
  }
  for (let i = words.length - 2; i >= 0; i--) if (leadsNumber(i) && (numeric[i + 1] || leadsNumber(i + 1))) kinds[i] = kinds[i + 1]!;
  return kinds;
}

function cellsOf(columns: Column[], words: RowWord[], confidence: number): Cells {
  const partsByKind = new Map<ColumnKind, Part[]>();
  const kindsByLine = new Map<IndexedLine, ColumnKind[]>();
  for (const { line, index } of words) {
    const word = line.words[index]!;
    if (!kindsByLine.has(line)) kindsByLine.set(line, kindsOfLine(columns, line));
    const kind = kindsByLine.get(line)![index]!;
    const parts = partsByKind.get(kind) ?? [];
    const start = line.starts[index]!;
    const last = parts[parts.length - 1];
    if (last && last.line === line && last.end + 1 >= start) last.end = start + word.text.length;
    else parts.push(partOf(line, start, start + word.text.length));
    partsByKind.set(kind, parts);
  }
  const cells: Cells = {};
  for (const [kind, parts] of partsByKind) cells[kind] = foundOf(parts, confidence);
  return cells;
}

function mergeInto(item: Cells, cells: Cells): void {
  for (const [kind, found] of Object.entries(cells) as Array<[ColumnKind, Found]>) {
    const existing = item[kind];
    item[kind] = existing ? foundOf([...existing.parts, ...found.parts], existing.confidence) : found;
  }
}

function hasNumber(found: Found | undefined): boolean {
  return found !== undefined && /\d/.test(found.text);
}

/** Tables already read per document, by the kinds asked for: several extractors ask for the same one. */
const TABLES = new WeakMap<Doc, Map<string, Table | undefined>>();

/** The first table whose header has a column of `required` kinds, read to its TOTAL row or end. */
export function readTable(doc: Doc, required: readonly ColumnKind[], confidence: number): Table | undefined {
  const cache = TABLES.get(doc) ?? new Map<string, Table | undefined>();
  TABLES.set(doc, cache);
  const key = `${required.join(",")}:${confidence}`;
  if (!cache.has(key)) cache.set(key, findTable(doc, required, confidence));
  return cache.get(key);
}

function findTable(doc: Doc, required: readonly ColumnKind[], confidence: number): Table | undefined {
  for (let row = 0; row < doc.rows.length; row++) {
    const columns = headerColumns(doc, row);
    const kinds = new Set(columns.map((c) => c.kind));
    if (columns.length < 2 || !required.every((k) => kinds.has(k)) || !columns.some((c) => NUMERIC_KINDS.has(c.kind))) continue;
    return readRows(doc, row, columns, confidence);
  }
  return undefined;
}

/** Rows a page may print above the repeated header of a continued table. */
const CONTINUED_TITLE_ROWS = 3;

/** The row, at or just below `row` on its page, that repeats the titles of `columns`. */
function repeatedHeader(doc: Doc, row: number, columns: Column[]): number | undefined {
  const kinds = (list: Column[]) => list.map((c) => c.kind).join(",");
  const page = doc.lines[doc.rows[row]![0]!]!.page;
  for (let r = row; r < Math.min(doc.rows.length, row + CONTINUED_TITLE_ROWS); r++) {
    if (doc.lines[doc.rows[r]![0]!]!.page !== page) return undefined;
    if (kinds(headerColumns(doc, r)) === kinds(columns)) return r;
  }
  return undefined;
}

function readRows(doc: Doc, headerRow: number, columns: Column[], confidence: number): Table {
  const items: Cells[] = [];
  let totals: Cells | undefined;
  let last = doc.lines[doc.rows[headerRow]![0]!]!;
  for (let row = headerRow + 1; row < doc.rows.length && row <= headerRow + MAX_ROWS; row++) {
    const first = doc.lines[doc.rows[row]![0]!]!;
    // Prose running across the columns ends the table.
    if (items.length > 0 && doc.rows[row]!.some((id) => spannedTitles(columns, doc.lines[id]!) >= PROSE_TITLES)) break;
    const cells = cellsOf(columns, rowWords(doc, row), confidence);
    const numericCells = (Object.keys(cells) as ColumnKind[]).filter((k) => NUMERIC_KINDS.has(k) && hasNumber(cells[k])).length;
    // A table continued on the next page repeats its header there, under a running title ("PACKING LIST (continued)"): read on below it.
    const repeated = first.page !== last.page && items.length > 0 ? repeatedHeader(doc, row, columns) : undefined;
    if (repeated !== undefined) {
      row = repeated;
      last = doc.lines[doc.rows[row]![0]!]!;
      continue;
    }
    // A table continues on the next page only with rows that still look like its rows.
    if (first.page !== last.page && !(TOTAL_ROW.test(first.text) || numericCells >= MIN_CONTINUED_NUMBERS)) break;
    // A wrapped header word ("Invoic / e") right under the header is part of the header.
    if (items.length === 0 && !/\d/.test(rowWords(doc, row).map((w) => w.line.words[w.index]!.text).join("")) && first.y0 - last.y1 < lineHeight(last)) {
      last = first;
      continue;
    }
    const maxGap = items.length === 0 ? MAX_FIRST_ROW_GAP_LINES : MAX_ROW_GAP_LINES;
    if (first.page === last.page && first.y0 - last.y1 > maxGap * lineHeight(last)) break;
    last = first;
    // Results are never summed: "Total Ash" in a table of parameters names a parameter, not a TOTAL row.
    const isTotal = TOTAL_ROW.test(first.text) && !columns.some((c) => c.kind === "parameter");
    if (!isTotal && startsWithLabel(doc, first) && items.length > 0) break;
    if (isTotal) {
      totals = cells;
      break;
    }
    const current = items[items.length - 1];
    const describes = !columns.some((c) => c.kind === "description") || cells.description !== undefined;
    const opensItem =
      !current ||
      (describes && (Object.keys(cells) as ColumnKind[]).some((k) => NUMERIC_KINDS.has(k) && hasNumber(cells[k]) && hasNumber(current[k])));
    if (opensItem && (Object.keys(cells) as ColumnKind[]).some((k) => NUMERIC_KINDS.has(k) && hasNumber(cells[k]))) items.push(cells);
    else if (current) mergeInto(current, cells);
    else items.push(cells);
  }
  return { headerRow, columns, items, totals };
}
