/** Lists of documents under a label ("Documents required:"), split into items. */
import { cleanValue } from "../../normalize/text";
import type { ExtractionContext } from "../context";
import { readBlock } from "../find-value";
import { splitItems, stripMarker } from "../mt700";

export function readDocumentList(ctx: ExtractionContext, maxLines: number, key = "documents_required"): void {
  for (const hit of ctx.doc.hitsByKey.get("documents_required") ?? []) {
    const found = readBlock(ctx.doc, hit, maxLines);
    if (!found) continue;
    const items = splitItems({ tag: "list", parts: found.parts }).map((d) => stripMarker(cleanValue(d.text))).filter(Boolean);
    if (items.length > 0) return ctx.set(key, items, found);
  }
}
