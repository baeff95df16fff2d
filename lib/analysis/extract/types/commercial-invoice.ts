/** Commercial invoice: header labels, parties, and the line-item table with its total. */
import { normalizeCurrency } from "../../normalize/currency";
import type { ExtractionContext } from "../context";
import { scanHsCodes, scanIncoterm } from "../scan";
import { readRoute } from "./fallbacks";

import { readLetterhead } from "./letterhead";
import { readGoodsTable } from "./goods-table";
import { readPorts, readQuantity, readTotal, readVesselVoyage, readWeights } from "./shared";

export function extractCommercialInvoice(ctx: ExtractionContext): void {
  ctx.reference("invoice_number", ["invoice_number"]);
  ctx.date("invoice_date", ["invoice_date", "date"]);
  ctx.party("seller", "seller_address", ["seller", "shipper", "exporter", "beneficiary"]);
  readLetterhead(ctx, "seller", "seller_address");
  ctx.party("buyer", "buyer_address", ["buyer", "applicant", "consignee"]);
  ctx.party("consignee", undefined, ["consignee"]);
  readTotal(ctx, "total_amount", ["total_amount"]);
  ctx.text("currency", ["currency"]);
  if (typeof ctx.values.currency === "string" && !/^[A-Z]{3}$/.test(ctx.values.currency)) {
    const code = normalizeCurrency(ctx.values.currency);
    if (code) ctx.values.currency = code;
    else delete ctx.values.currency;
  }
  ctx.incoterm("incoterms", ["incoterms"]);
  readPorts(ctx);
  readVesselVoyage(ctx, false);
  readRoute(ctx, true);
  ctx.reference("bl_number", ["bl_number"]);
  ctx.reference("lc_number", ["lc_number"]);
  ctx.reference("contract_number", ["contract_number"]);
  // A labelled goods line ("Product:", "Commodity:") names the goods; a single table row adds its grade.
  ctx.description("description_of_goods", ["description"]);
  readGoodsTable(ctx, true);
  readQuantity(ctx);
  ctx.amount("unit_price", ["unit_price"]);
  readWeights(ctx, { gross: "gross_weight_kg", net: "net_weight_kg" });
  ctx.packages("number_of_packages", undefined, ["total_packages", "packages"]);
  ctx.country("country_of_origin", ["country_of_origin"]);
  scanHsCodes(ctx);
  scanIncoterm(ctx);
}
