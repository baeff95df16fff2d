/** Fumigation certificate: fumigant, dosage, exposure, temperature, date and place. */
import { findNumbers } from "../../normalize/amount";
import type { ExtractionContext } from "../context";
import { readPlaceDateLine } from "./fallbacks";
import { findLabelled } from "../find-value";
import { scanContainers } from "../scan";
import { readPorts, readVesselVoyage } from "./shared";

const HOURS_PER_DAY = 24;

function hoursOf(text: string): number | undefined {
  const n = findNumbers(text)[0];
  if (!n) return undefined;
  return /DAYS?/i.test(text.slice(n.index + n.length, n.index + n.length + 6)) ? n.value * HOURS_PER_DAY : n.value;
}

function celsiusOf(text: string): number | undefined {
  const m = /(-?\d+(?:[.,]\d+)?)\s*(?:°|DEG(?:REES?)?\.?)?\s*([CF])?\b/i.exec(text);
  if (!m) return undefined;
  const value = Number(m[1]!.replace(",", "."));
  return m[2]?.toUpperCase() === "F" ? Math.round(((value - 32) * 5) / 9 * 10) / 10 : value;
}

export function extractFumigationCertificate(ctx: ExtractionContext): void {
  ctx.reference("certificate_number", ["certificate_number", "reference_number", "number"]);
  ctx.date("date_of_issue", ["date"]);
  ctx.date("fumigation_date", ["fumigation_date", "treatment_date"]);
  ctx.text("fumigation_place", ["fumigation_place"]);
  ctx.text("fumigant", ["fumigant", "treatment"]);
  ctx.text("dosage", ["dosage"]);
  const duration = findLabelled(ctx.doc, ["duration"], (f) => hoursOf(f.text));
  if (duration) ctx.set("duration_hours", duration.value, duration.found);
  const temperature = findLabelled(ctx.doc, ["temperature"], (f) => celsiusOf(f.text));
  if (temperature) ctx.set("temperature_c", temperature.value, temperature.found);
  ctx.party("exporter", undefined, ["exporter", "shipper", "seller"]);
  ctx.party("consignee", undefined, ["consignee", "buyer"]);
  ctx.description("description_of_goods", ["description"]);
  scanContainers(ctx);
  readVesselVoyage(ctx, false);
  readPorts(ctx);
  ctx.packages("number_of_packages", undefined, ["total_packages", "packages", "quantity", "description"]);
  readPlaceDateLine(ctx);
}
