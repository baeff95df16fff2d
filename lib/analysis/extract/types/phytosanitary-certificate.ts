/** Phytosanitary certificate, IPPC / ISPM 12 model boxes. */
import { findCountryIn, normalizeCountry } from "../../normalize/country";
import { parseDate } from "../../normalize/date";
import { cleanValue } from "../../normalize/text";
import type { ExtractionContext } from "../context";
import { valueOfHit, findLabelled } from "../find-value";
import { startsWithLabel } from "../document";
import { CONFIDENCE, foundOf, narrowFound, partOf } from "../found";
import { scanContainers } from "../scan";
import { readPlaceDateLine } from "./fallbacks";

/** "RAW CASHEW NUTS - 23,040 KGS NET": produce, then its declared quantity. */
const PRODUCE_QUANTITY = /\s+[-–]\s+(?=[\d.,]+\s*[A-Za-z])/;
const TREATMENT_SECTION = /DISINFESTATION|DISINFECTION|TREATMENT/;

function readProduce(ctx: ExtractionContext): void {
  const result = findLabelled(ctx.doc, ["description", "quantity_declared"], (f) => cleanValue(f.text) || undefined, { maxLines: 2 });
  if (!result) return;
  const split = PRODUCE_QUANTITY.exec(result.value);
  if (!split) return ctx.description("description_of_goods", ["description"]);
  ctx.set("description_of_goods", result.value.slice(0, split.index), narrowFound(result.found, 0, split.index));
  const start = split.index + split[0].length;
  ctx.set("quantity_declared", result.value.slice(start), narrowFound(result.found, start, result.value.length));
}

/** The treatment section's "Date" is the treatment date; the issue date sits by "Place of issue". */
function readDates(ctx: ExtractionContext): void {
  ctx.date("treatment_date", ["treatment_date"]);
  const dateHits = ctx.doc.hitsByKey.get("date") ?? [];
  const section = ctx.doc.lines.find((l) => TREATMENT_SECTION.test(l.upper) && l.upper === l.text);
  for (const hit of dateHits) {
    const found = valueOfHit(ctx.doc, hit);
    const iso = found && parseDate(found.text, ctx.doc.dateContext);
    if (!found || !iso) continue;
    const rowText = ctx.doc.rows[hit.line.row]!.map((id) => ctx.doc.lines[id]!.upper).join(" ");
    const inSection = section !== undefined && hit.line.id > section.id && hit.line.id <= section.id + 3;
    if (/ISSUE/.test(rowText) || /ISSUE/.test(hit.line.upper.slice(hit.start, hit.valueStart))) ctx.set("date_of_issue", iso, found);
    else if (inSection) ctx.set("treatment_date", iso, found);
  }
  ctx.date("date_of_issue", ["date"]);
  readPlaceDateLine(ctx);
}

/** A plant protection body's name: a ministry, department, service, directorate or organisation. */
const PLANT_AUTHORITY = /\b(?:MINIST[A-ZÉ]*|DEPARTMENT|SERVICE|SERVI[CÇ]O|ORGANI[SZ]ATION|AUTHORITY|AGENCY|INSPECTION|DIRECTORATE|DIRECTION|ADMINISTRATION|QUARANTINE|BUREAU|PFLANZENSCHUTZ\w*)\b/i;

/** The issuing body printed above the certificate's title (its letterhead), when no label named it. */
function readAuthorityHeading(ctx: ExtractionContext): void {
  const { lines } = ctx.doc;
  const title = lines.find((l) => l.page === lines[0]!.page && /PHYTOSANITARY\s+CERTIFICATE/i.test(l.text));
  const heading = title && lines.find((l) => l.id < title.id && PLANT_AUTHORITY.test(l.text) && !startsWithLabel(ctx.doc, l));
  if (heading) ctx.set("issuing_authority", cleanValue(heading.text), foundOf([partOf(heading)], CONFIDENCE.scan));
}

export function extractPhytosanitaryCertificate(ctx: ExtractionContext): void {
  ctx.reference("certificate_number", ["certificate_number", "reference_number", "number"]);
  readDates(ctx);
  ctx.name("issuing_authority", ["issuing_authority", "issuer", "signed_for"]);
  readAuthorityHeading(ctx);
  ctx.party("exporter", "exporter_address", ["exporter", "shipper"]);
  ctx.party("consignee", "consignee_address", ["consignee"]);
  ctx.text("place_of_origin", ["place_of_origin"]);
  ctx.country("country_of_origin", ["country_of_origin", "place_of_origin"]);
  const destination = findLabelled(ctx.doc, ["destination_country"], (f) => normalizeCountry(f.text) ?? findCountryIn(f.text));
  if (destination) ctx.set("destination_country", destination.value, destination.found);
  ctx.text("means_of_conveyance", ["means_of_conveyance"]);
  ctx.text("point_of_entry", ["point_of_entry"]);
  readProduce(ctx);
  ctx.text("botanical_name", ["botanical_name"]);
  ctx.text("quantity_declared", ["quantity_declared", "quantity"]);
  ctx.text("distinguishing_marks", ["marks"], { maxLines: 3 });
  ctx.text("treatment", ["treatment"]);
  scanContainers(ctx);
}
