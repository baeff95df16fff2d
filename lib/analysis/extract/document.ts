/** A document prepared for extraction: its line index plus every label hit, found once. */
import { detectDecimalComma } from "../normalize/amount";
import { indexDocument, type DocIndex, type IndexedLine } from "./doc-index";
import { findLabels, type LabelHit } from "./labels";
import type { Page } from "../types";

export interface Doc extends DocIndex {
  /** Label hits per line id. */
  hitsByLine: LabelHit[][];
  /** Label hits per semantic label, in document order. */
  hitsByKey: Map<string, LabelHit[]>;
  /** The document prints numbers as 1.234,56. */
  decimalComma: boolean;
  /** Rows that are table headers (labels there head columns, read by the table reader). */
  headerRows: Set<number>;
}

/** A row labelling the goods and this many columns in all is a table header. */
const MIN_HEADER_COLUMNS = 3;

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
  const headerRows = new Set<number>();
  index.rows.forEach((ids, row) => {
    if (!ids.some((id) => hitsByLine[id]!.some((hit) => hit.keys.includes("description")))) return;
    const kinds = new Set(ids.flatMap((id) => hitsByLine[id]!.flatMap((hit) => hit.keys)));
    if (kinds.size >= MIN_HEADER_COLUMNS && hasItemRows(index, hitsByLine, row)) headerRows.add(row);
  });
  return { ...index, hitsByLine, hitsByKey, decimalComma: detectDecimalComma(index.lines.map((l) => l.text)), headerRows };
}

/** True when a line opens with a label (so it starts a new field). */
export function startsWithLabel(doc: Doc, line: IndexedLine): boolean {
  return doc.hitsByLine[line.id]!.some((hit) => hit.start === 0);
}
