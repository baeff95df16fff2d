/** Packing list: header labels, parties, and the weights/packages table with its totals. */
import type { ExtractionContext } from "../context";
import { cleanGoods, readHeadingAbove, readRoute } from "./fallbacks";
import { readLetterhead } from "./letterhead";

import { scanContainers } from "../scan";
import { fillFromTable, readCargoTable, readPorts, readVesselVoyage, readWeights } from "./shared";

export function extractPackingList(ctx: ExtractionContext): void {
  ctx.reference("packing_list_number", ["packing_list_number"]);
  ctx.date("date_of_issue", ["date"]);
  ctx.reference("invoice_number", ["invoice_number"]);
  ctx.party("seller", undefined, ["seller", "shipper", "exporter"]);
  readLetterhead(ctx, "seller");
  ctx.party("buyer", undefined, ["buyer", "applicant"]);
  ctx.party("consignee", undefined, ["consignee"]);
  readVesselVoyage(ctx, false);
  readPorts(ctx);
  readRoute(ctx, true);
  scanContainers(ctx);
  ctx.packages("number_of_packages", "package_type", ["total_packages", "packages", "quantity"]);
  readWeights(ctx, { gross: "gross_weight_kg", net: "net_weight_kg", cbm: "measurement_cbm" });
  const table = readCargoTable(ctx);
  fillFromTable(ctx, table, { gross: "gross_weight_kg", net: "net_weight_kg", cbm: "measurement_cbm", packages: "number_of_packages", packageType: "package_type" });
  ctx.description("description_of_goods", ["description"]);
  const goods = table?.items[0]?.description;
  readHeadingAbove(ctx, table);
  if (goods && table.items.length === 1) ctx.set("description_of_goods", cleanGoods(goods.text), goods);
  ctx.text("marks_and_numbers", ["marks"], { maxLines: 4 });
}
