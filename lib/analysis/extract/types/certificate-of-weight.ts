/** Certificate of weight (weight note, weighbridge or surveyor's certificate). */
import type { ExtractionContext } from "../context";
import { readPlaceDateLine } from "./fallbacks";
import { scanContainers, scanWeightPhrases } from "../scan";
import { fillFromTable, readCargoTable, readPorts, readVesselVoyage, readWeights } from "./shared";

export function extractCertificateOfWeight(ctx: ExtractionContext): void {
  ctx.reference("certificate_number", ["certificate_number", "reference_number", "number"]);
  ctx.date("date_of_issue", ["date"]);
  ctx.name("issuer", ["issuer", "issuing_authority", "signed_for"]);
  ctx.party("shipper", undefined, ["shipper", "exporter", "seller"]);
  ctx.party("consignee", undefined, ["consignee", "buyer"]);
  readVesselVoyage(ctx, false);
  ctx.reference("bl_number", ["bl_number"]);
  readPorts(ctx);
  ctx.description("description_of_goods", ["description"]);
  scanContainers(ctx);
  ctx.packages("number_of_packages", undefined, ["total_packages", "packages", "quantity", "description"]);
  readWeights(ctx, { gross: "gross_weight_kg", net: "net_weight_kg", tare: "tare_weight_kg" });
  fillFromTable(ctx, readCargoTable(ctx), { gross: "gross_weight_kg", net: "net_weight_kg", tare: "tare_weight_kg", packages: "number_of_packages" });
  scanWeightPhrases(ctx, ["gross_weight_kg", "net_weight_kg", "tare_weight_kg"]);
  ctx.date("date_of_weighing", ["weighing_date"]);
  readPlaceDateLine(ctx);
}
