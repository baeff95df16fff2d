/** Documentary instructions, covering letters and bank covering schedules. */
import { cleanValue } from "../../normalize/text";
import type { ExtractionContext } from "../context";
import { readPlaceDateLine } from "./fallbacks";
import { readDocumentList, readScheduleTable } from "./document-list";
import { CONFIDENCE, foundOf } from "../found";
import { splitItems, stripMarker } from "../mt700";
import { readShipmentSentence } from "./fallbacks";
import { readPorts } from "./shared";

const DOCUMENT_LINES = 30;
const LIST_ITEM = /^\s*\(?(\d{1,2})[.)]\s+\S/;
/** A list of enclosed or required documents has at least this many numbered items. */
const MIN_LIST_ITEMS = 2;

/** An unlabelled numbered list ("1. COMMERCIAL INVOICE ...", "2. ..."), items with their wrapped lines. */
function readNumberedList(ctx: ExtractionContext): void {
  const { lines } = ctx.doc;
  const start = lines.findIndex((l, i) => LIST_ITEM.exec(l.text)?.[1] === "1" && LIST_ITEM.exec(lines[i + 1]?.text ?? "")?.[1] === "2");
  if (start < 0) return;
  const first = lines[start]!;
  const parts = [];
  for (let i = start; i < lines.length; i++) {
    const line = lines[i]!;
    const item = LIST_ITEM.test(line.text);
    if (line.page !== first.page || (!item && line.x0 <= first.x0) || (!item && i > start && line.y0 - lines[i - 1]!.y1 > line.y1 - line.y0)) break;
    parts.push({ line, start: 0, end: line.text.length });
  }
  const items = splitItems({ tag: "list", parts }).map((d) => stripMarker(cleanValue(d.text))).filter(Boolean);
  if (items.length >= MIN_LIST_ITEMS) ctx.set("documents_required", items, foundOf(parts, CONFIDENCE.scan));
}

export function extractDocumentInstruction(ctx: ExtractionContext): void {
  ctx.reference("reference_number", ["reference_number"]);
  ctx.date("date_of_issue", ["date"]);
  ctx.reference("lc_number", ["lc_number"]);
  ctx.reference("contract_number", ["contract_number"]);
  ctx.party("shipper", undefined, ["shipper", "exporter", "seller", "beneficiary"]);
  ctx.party("consignee", undefined, ["consignee"]);
  ctx.party("notify_party", undefined, ["notify_party"]);
  readPorts(ctx, undefined, true);
  ctx.description("description_of_goods", ["description"]);
  readShipmentSentence(ctx);
  readScheduleTable(ctx);
  readDocumentList(ctx, DOCUMENT_LINES);
  if (!ctx.has("documents_required")) readNumberedList(ctx);
  ctx.text("marks_and_numbers", ["marks"], { maxLines: 4 });
  readPlaceDateLine(ctx);
}
