/** Bill of lading: boxed form or labelled lines; cargo from the particulars table or labels. */
import { parseCount } from "../../normalize/quantity";
import type { ExtractionContext } from "../context";
import { findLabelled } from "../find-value";
import { scanContainers, scanFreight, scanHsCodes, scanOnBoardDate, scanSeals } from "../scan";
import { cleanGoods, readCarrier, readPackagesLine, readPlaceDateLine } from "./fallbacks";
import { fillFromTable, readCargoTable, readPlaceOfIssue, readPorts, readVesselVoyage, readWeights } from "./shared";

export function extractBillOfLading(ctx: ExtractionContext): void {
  ctx.reference("bl_number", ["bl_number", "document_number"]);
  ctx.reference("booking_number", ["booking_number"]);
  ctx.party("shipper", "shipper_address", ["shipper", "exporter", "seller"]);
  ctx.party("consignee", "consignee_address", ["consignee"]);
  ctx.party("notify_party", undefined, ["notify_party"]);
  readCarrier(ctx);
  readVesselVoyage(ctx, true);
  readPorts(ctx, ["port_of_loading", "port_of_discharge", "place_of_receipt", "place_of_delivery"]);
  scanContainers(ctx);
  scanSeals(ctx);
  ctx.packages("number_of_packages", "package_type", ["total_packages", "packages", "description", "quantity"]);
  const described = findLabelled(ctx.doc, ["description"], (f) => cleanGoods(f.text) || undefined, { maxLines: 4 });
  if (described) ctx.set("description_of_goods", described.value, described.found);
  scanHsCodes(ctx);
  readWeights(ctx, { gross: "gross_weight_kg", net: "net_weight_kg", cbm: "measurement_cbm" });
  const table = readCargoTable(ctx);
  fillFromTable(ctx, table, { gross: "gross_weight_kg", net: "net_weight_kg", cbm: "measurement_cbm", packages: "number_of_packages", packageType: "package_type" });
  const goods = table?.items[0]?.description;
  if (goods) ctx.set("description_of_goods", cleanGoods(goods.text), goods);
  readPackagesLine(ctx, "number_of_packages", "package_type");
  scanFreight(ctx);
  ctx.date("shipped_on_board_date", ["shipped_on_board"]);
  scanOnBoardDate(ctx);
  readPlaceOfIssue(ctx);
  ctx.date("date_of_issue", ["date"]);
  readPlaceDateLine(ctx);
  const originals = findLabelled(ctx.doc, ["originals"], (f) => parseCount(f.text));
  if (originals) ctx.set("number_of_originals", originals.value, originals.found);
  ctx.reference("lc_number", ["lc_number"]);
}
