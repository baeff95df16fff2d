/** Documentary instructions, covering letters and bank covering schedules. */
import { cleanValue } from "../../normalize/text";
import type { ExtractionContext } from "../context";
import { readPlaceDateLine } from "./fallbacks";
import { findLabelled } from "../find-value";
import { splitItems, stripMarker } from "../mt700";
import { readPorts } from "./shared";

const DOCUMENT_LINES = 30;

export function extractDocumentInstruction(ctx: ExtractionContext): void {
  ctx.reference("reference_number", ["reference_number"]);
  ctx.date("date_of_issue", ["date"]);
  ctx.reference("lc_number", ["lc_number"]);
  ctx.reference("contract_number", ["contract_number"]);
  ctx.party("shipper", undefined, ["shipper", "exporter", "seller", "beneficiary"]);
  ctx.party("consignee", undefined, ["consignee"]);
  ctx.party("notify_party", undefined, ["notify_party"]);
  readPorts(ctx);
  ctx.description("description_of_goods", ["description"]);
  const documents = findLabelled(ctx.doc, ["documents_required"], (f) => f, { maxLines: DOCUMENT_LINES });
  if (documents) {
    const items = splitItems({ tag: "46A", parts: documents.found.parts }).map((d) => stripMarker(cleanValue(d.text))).filter(Boolean);
    if (items.length > 0) ctx.set("documents_required", items, documents.found);
  }
  ctx.text("marks_and_numbers", ["marks"], { maxLines: 4 });
  readPlaceDateLine(ctx);
}
