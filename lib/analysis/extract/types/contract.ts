/** Sales contract / purchase contract / sales confirmation. */
import type { ExtractionContext } from "../context";
import { parseAmount } from "../../normalize/amount";
import { readRoute } from "./fallbacks";
import { readLetterhead } from "./letterhead";
import { readGoodsTable } from "./goods-table";
import { findLabelled } from "../find-value";
import { scanIncoterm } from "../scan";
import { readPorts, readQuantity, readTotal, toleranceOf } from "./shared";

export function extractContract(ctx: ExtractionContext): void {
  ctx.reference("contract_number", ["contract_number", "number"]);
  ctx.date("date_of_issue", ["date", "number"]);
  ctx.party("seller", "seller_address", ["seller", "exporter", "shipper", "beneficiary"]);
  readLetterhead(ctx, "seller", "seller_address");
  ctx.party("buyer", "buyer_address", ["buyer", "applicant", "consignee"]);
  readGoodsTable(ctx, false);
  ctx.description("description_of_goods", ["description"]);
  readQuantity(ctx);
  const price = findLabelled(ctx.doc, ["unit_price"], (f) => (f.text.match(/\bPER\b/gi) ?? []).length > 1 ? undefined : parseAmount(f.text, ctx.doc.decimalComma));
  if (price) ctx.set("unit_price", price.value, price.found);
  readTotal(ctx, "total_amount", ["total_amount"]);
  ctx.incoterm("incoterms", ["incoterms"]);
  scanIncoterm(ctx);
  readPorts(ctx);
  readRoute(ctx, false);
  ctx.date("latest_shipment_date", ["latest_shipment_date"]);
  ctx.text("payment_terms", ["payment_terms"], { maxLines: 2 });
  // Under a tolerance title ("More or Less (%)", "Tolerance, pct") a bare number is the percentage.
  const tolerance = findLabelled(ctx.doc, ["tolerance", "quantity"], (f, hit) => toleranceOf(f.text) ?? (hit.keys.includes("tolerance") ? barePercent(f.text) : undefined));
  if (tolerance) ctx.set("tolerance_pct", tolerance.value, tolerance.found);
}

const BARE_PERCENT = /^\s*[+±]?\s*(\d{1,2}(?:\.\d+)?)\s*%?\s*$/;

function barePercent(text: string): number | undefined {
  const m = BARE_PERCENT.exec(text);
  return m ? Number(m[1]) : undefined;
}
