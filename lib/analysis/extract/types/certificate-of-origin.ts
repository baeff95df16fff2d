/** Certificate of origin: numbered boxes (exporter, consignee, transport, goods) and the issuing chamber. */
import { findCountryIn } from "../../normalize/country";
import { cleanValue } from "../../normalize/text";
import type { ExtractionContext } from "../context";
import { findLabelled } from "../find-value";
import { CONFIDENCE, foundOf, partOf } from "../found";
import { scanHsCodes } from "../scan";
import { cleanGoods, readPlaceDateLine, readRoute } from "./fallbacks";
import { fillFromTable, readCargoTable, readPorts, readVesselVoyage, readWeights } from "./shared";

const AUTHORITY_LINE = /CHAMBER OF COMMERCE|CHAMBER OF INDUSTRY|MINISTRY OF|CUSTOMS AUTHORITY|EXPORT PROMOTION|GENERAL ADMINISTRATION/i;
const ORIGIN_PHRASE = /(?:GOODS\s+(?:ARE\s+)?OF|ORIGINATE\s+IN|ORIGINATING\s+IN|PRODUCED\s+IN|MANUFACTURED\s+IN)\s+([A-Z][A-Z .']+)/i;

export function extractCertificateOfOrigin(ctx: ExtractionContext): void {
  ctx.reference("certificate_number", ["certificate_number", "reference_number"]);
  ctx.date("date_of_issue", ["date"]);
  ctx.party("exporter", "exporter_address", ["exporter", "shipper", "seller"]);
  ctx.party("consignee", undefined, ["consignee", "buyer"]);
  ctx.country("country_of_origin", ["country_of_origin"]);
  for (const line of ctx.doc.lines) {
    const m = ORIGIN_PHRASE.exec(line.text);
    const country = m && findCountryIn(m[1]!);
    if (m && country) ctx.set("country_of_origin", country, foundOf([partOf(line, m.index, m.index + m[0].length)], CONFIDENCE.scan));
  }
  ctx.country("destination_country", ["destination_country"]);
  ctx.text("issuing_authority", ["issuing_authority"]);
  const authority = ctx.doc.lines.find((l) => AUTHORITY_LINE.test(l.text));
  if (authority) ctx.set("issuing_authority", cleanValue(authority.text.replace(/^.*\bBY\s+/i, "")), foundOf([partOf(authority)], CONFIDENCE.scan));
  readVesselVoyage(ctx, false);
  readPorts(ctx);
  readRoute(ctx, true);
  const table = readCargoTable(ctx);
  const goods = table?.items[0]?.description;
  if (goods && table.items.length === 1) ctx.set("description_of_goods", cleanGoods(goods.text), goods);
  const described = findLabelled(ctx.doc, ["description"], (f) => cleanGoods(f.text) || undefined, { maxLines: 4 });
  if (described) ctx.set("description_of_goods", described.value, described.found);
  scanHsCodes(ctx);
  ctx.packages("number_of_packages", undefined, ["total_packages", "packages", "quantity", "description"]);
  readWeights(ctx, { gross: "gross_weight_kg" });
  fillFromTable(ctx, table, { gross: "gross_weight_kg", packages: "number_of_packages" });
  ctx.reference("invoice_number", ["invoice_number"]);
  readPlaceDateLine(ctx);
}
