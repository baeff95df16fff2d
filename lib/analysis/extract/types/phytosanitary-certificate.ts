/** Phytosanitary certificate, IPPC / ISPM 12 model boxes. */
import { findCountryIn, normalizeCountry } from "../../normalize/country";
import type { ExtractionContext } from "../context";
import { readPlaceDateLine } from "./fallbacks";
import { findLabelled } from "../find-value";
import { scanContainers } from "../scan";

export function extractPhytosanitaryCertificate(ctx: ExtractionContext): void {
  ctx.reference("certificate_number", ["certificate_number", "reference_number"]);
  ctx.date("date_of_issue", ["date"]);
  ctx.text("issuing_authority", ["issuing_authority", "issuer"]);
  ctx.party("exporter", "exporter_address", ["exporter", "shipper"]);
  ctx.party("consignee", "consignee_address", ["consignee"]);
  ctx.text("place_of_origin", ["place_of_origin"]);
  ctx.country("country_of_origin", ["country_of_origin", "place_of_origin"]);
  const destination = findLabelled(ctx.doc, ["destination_country"], (f) => normalizeCountry(f.text) ?? findCountryIn(f.text));
  if (destination) ctx.set("destination_country", destination.value, destination.found);
  ctx.text("means_of_conveyance", ["means_of_conveyance"]);
  ctx.text("point_of_entry", ["point_of_entry"]);
  ctx.description("description_of_goods", ["description"]);
  ctx.text("botanical_name", ["botanical_name"]);
  ctx.text("quantity_declared", ["quantity_declared", "quantity"]);
  ctx.text("distinguishing_marks", ["marks"], { maxLines: 3 });
  ctx.text("treatment", ["treatment"]);
  ctx.date("treatment_date", ["treatment_date"]);
  scanContainers(ctx);
  readPlaceDateLine(ctx);
}
