/** A document prepared for extraction: its line index plus every label hit, found once. */
import { detectDecimalComma } from "../normalize/amount";
import { detectCaptionsBelow } from "./captions";
import { indexDocument, type DocIndex, type IndexedLine } from "./doc-index";
import { findLabels, type LabelHit } from "./labels";
import { headerColumns, NUMERIC_KINDS } from "./table-header";
import type { Page } from "../types";

export interface Doc extends DocIndex {
  /** Label hits per line id. */
  hitsByLine: LabelHit[][];
  /** Label hits per semantic label, in document order. */
  hitsByKey: Map<string, LabelHit[]>;
  /** The document prints numbers as 1.234,56. */
  decimalComma: boolean;
  /** Rows that are table headers (labels there head columns, read by the table reader: totals or sums, never the first row). */
  headerRows: Set<number>;
  /** The document prints its bare titles as captions under their values (captions.ts). */
  captionsBelow: boolean;
}

/**
 * A row of this many column titles, one of them the goods or two of them
 * measures (a container table: packages, gross weight, measurement), is a
 * table header when item rows follow. A grid of party or routing boxes names
 * no measures, so its titles stay labels.
 */
const MIN_HEADER_COLUMNS = 3;
const MIN_MEASURE_COLUMNS = 2;
const MEASURE_KEYS: ReadonlySet<string> = new Set([
  "packages", "gross_weight", "net_weight", "measurement", "quantity", "unit_price", "total_amount",
  "total_gross_weight", "total_net_weight", "total_measurement", "total_packages",
]);

/** Rows below a header that hold numbers in two or more cells; two of them make a table of items. */
const ITEM_ROWS = 2;
const ROWS_LOOKED_AT = 6;

function hasItemRows(index: DocIndex, hitsByLine: LabelHit[][], header: number): boolean {
  let items = 0;
  const page = index.lines[index.rows[header]![0]!]!.page;
  for (let row = header + 1; row < Math.min(index.rows.length, header + 1 + ROWS_LOOKED_AT); row++) {
    const lines = index.rows[row]!.map((id) => index.lines[id]!);
    if (lines[0]!.page !== page || lines.some((l) => hitsByLine[l.id]!.some((h) => h.start === 0))) break;
    if (lines.filter((l) => /\d/.test(l.text)).length >= 2) items++;
  }
  return items >= ITEM_ROWS;
}

export function prepareDocument(pages: Page[]): Doc {
  const index = indexDocument(pages);
  const hitsByLine = index.lines.map((line) => findLabels(line));
  const hitsByKey = new Map<string, LabelHit[]>();
  for (const hits of hitsByLine) {
    for (const hit of hits) {
      for (const key of hit.keys) {
        const list = hitsByKey.get(key) ?? [];
        list.push(hit);
        hitsByKey.set(key, list);
      }
    }
  }
  const doc: Doc = {
    ...index, hitsByLine, hitsByKey, decimalComma: detectDecimalComma(index.lines.map((l) => l.text)), headerRows: new Set(),
    captionsBelow: detectCaptionsBelow(index, hitsByLine),
  };
  index.rows.forEach((ids, row) => {
    if (titlesColumns(doc, ids, row) && hasItemRows(index, hitsByLine, row)) doc.headerRows.add(row);
  });
  return doc;
}

/**
 * Whether a row's titles head columns: three labels, one of them the goods or
 * two of them measures, or three column titles the table reader knows, two of
 * them measures. Titles no label names ("Cargo Gross kg", "Tare (kg)") still
 * make a container table's header, so its first row is never read as the
 * value of "Net (kg)".
 */
function titlesColumns(doc: Doc, ids: number[], row: number): boolean {
  const kinds = new Set(ids.flatMap((id) => doc.hitsByLine[id]!.flatMap((hit) => hit.keys)));
  const measures = [...kinds].filter((k) => MEASURE_KEYS.has(k)).length;
  if (kinds.size >= MIN_HEADER_COLUMNS && (kinds.has("description") || measures >= MIN_MEASURE_COLUMNS)) return true;
  const columns = headerColumns(doc, row);
  return columns.length >= MIN_HEADER_COLUMNS && columns.filter((c) => NUMERIC_KINDS.has(c.kind)).length >= MIN_MEASURE_COLUMNS;
}

/** True when a line opens with a label (so it starts a new field). */
export function startsWithLabel(doc: Doc, line: IndexedLine): boolean {
  return doc.hitsByLine[line.id]!.some((hit) => hit.start === 0);
}

/** Forgets the label hits of `lineIds`: lines known to be values (an MT700 field's lines), whatever words they open with. */
export function dropLabels(doc: Doc, lineIds: ReadonlySet<number>): void {
  for (const id of lineIds) doc.hitsByLine[id] = [];
  for (const [key, hits] of doc.hitsByKey) {
    const kept = hits.filter((h) => !lineIds.has(h.line.id));
    if (kept.length > 0) doc.hitsByKey.set(key, kept);
    else doc.hitsByKey.delete(key);
  }
}
