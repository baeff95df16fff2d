/** Lists of documents under a label ("Documents required:"), split into items, or in a covering schedule's table. */
import { cleanValue } from "../../normalize/text";
import type { ExtractionContext } from "../context";
import { lineHeight } from "../doc-index";
import { readBlock } from "../find-value";
import { CONFIDENCE, foundOf, partOf, type Part } from "../found";
import { splitItems, stripMarker } from "../mt700";

export function readDocumentList(ctx: ExtractionContext, maxLines: number, key = "documents_required"): void {
  for (const hit of ctx.doc.hitsByKey.get("documents_required") ?? []) {
    const found = readBlock(ctx.doc, hit, maxLines);
    if (!found) continue;
    const items = splitItems({ tag: "list", parts: found.parts }).map((d) => stripMarker(cleanValue(d.text))).filter(Boolean);
    if (items.length > 0) return ctx.set(key, items, found);
  }
}

/** The column titles of a covering schedule: the documents, and how many originals and copies of each. */
const DOCUMENTS_TITLE = /^(?:(?:DESCRIPTION\s+OF\s+)?DOCUMENTS?(?:\s+(?:ENCLOSED|PRESENTED))?|ENCLOSURES?)$/i;
const COUNT_TITLE = /^(?:ORIG(?:INALS?)?\.?|COP(?:Y|IES)|NO\.?\s+OF\s+(?:ORIGINALS|COPIES)|(?:ORIGINALS?|COPIES)\s*\/\s*(?:ORIGINALS?|COPIES))$/i;
/** A row of the schedule sits at most this many line heights under the one above. */
const MAX_ROW_GAP_LINES = 2;

/**
 * A bank covering schedule lists the enclosed documents as a table: a
 * "Document" column and columns counting originals and copies. Each row's
 * document cell is one item; the table ends at a row without counts.
 */
export function readScheduleTable(ctx: ExtractionContext, key = "documents_required"): void {
  const { doc } = ctx;
  for (let row = 0; row < doc.rows.length; row++) {
    const titles = doc.rows[row]!.map((id) => doc.lines[id]!);
    const head = titles.find((l) => DOCUMENTS_TITLE.test(cleanValue(l.text)));
    if (!head || !titles.some((l) => l.x0 > head.x1 && COUNT_TITLE.test(cleanValue(l.text)))) continue;
    const parts: Part[] = [];
    let last = head;
    for (let r = row + 1; r < doc.rows.length; r++) {
      const cells = doc.rows[r]!.map((id) => doc.lines[id]!);
      const name = cells.find((l) => l.x0 < head.x1 && l.x1 > head.x0 - lineHeight(head));
      const counted = cells.some((l) => l.x0 > (name?.x1 ?? head.x1) && /^\d{1,2}$/.test(l.text.trim()));
      if (!name || !counted || name.page !== head.page || name.y0 - last.y1 > MAX_ROW_GAP_LINES * lineHeight(last)) break;
      parts.push(partOf(name));
      last = name;
    }
    if (parts.length > 0) return ctx.set(key, parts.map((p) => cleanValue(p.line.text)), foundOf(parts, CONFIDENCE.table));
  }
}
