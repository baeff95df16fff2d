/** Certificate of quality / analysis: header labels and the results table (parameter, result, unit). */
import { parseNumber } from "../../normalize/amount";
import { cleanValue } from "../../normalize/text";
import type { ExtractionContext } from "../context";
import { readPlaceDateLine } from "./fallbacks";
import { startsWithLabel } from "../document";
import { CONFIDENCE, foundOf, partOf } from "../found";
import { scanContainers } from "../scan";
import { readTable } from "../table";
import { readPorts, readVesselVoyage } from "./shared";

interface QualityParameter {
  name: string;
  value: string | number;
  unit?: string;
}

/** A result printed with its unit ("12.5 %", "0.3 mg/kg") when the table has no unit column. */
const VALUE_WITH_UNIT = /^([<>≤≥]?\s*-?\d[\d.,]*)\s*(\S.*)?$/;

function readParameters(ctx: ExtractionContext): void {
  const table = readTable(ctx.doc, ["parameter", "result"], CONFIDENCE.table);
  if (!table) return;
  const parameters: QualityParameter[] = [];
  for (const cells of table.items) {
    const name = cells.parameter && cleanValue(cells.parameter.text);
    const raw = cells.result && cleanValue(cells.result.text);
    if (!name || !raw) continue;
    const m = VALUE_WITH_UNIT.exec(raw);
    const number = m && /^-?\d/.test(m[1]!) ? parseNumber(m[1]!) : undefined;
    const parameter: QualityParameter = { name, value: number ?? raw };
    const unit = cells.unit ? cleanValue(cells.unit.text) : number !== undefined ? m?.[2] : undefined;
    if (unit) parameter.unit = unit;
    parameters.push(parameter);
  }
  const first = table.items[0]?.parameter;
  if (parameters.length > 0 && first) ctx.set("quality_parameters", parameters, first);
}

const RESULTS_HEADING = /^(?:[A-Z ]*\b)?(?:RESULTS?|FINDINGS|ANALYSIS|PARAMETERS|QUALITY)\b[A-Z :,]*$/;
const RESULT_LINE = /^(.+?)\s*(?::|\.{2,}|…+)\s*([<>≤≥]?\s*-?\d[\d.,]*)\s*(\S.*)?$/;

/** Results listed as lines under a heading: "Moisture: 11.9 %", "Bulk density ...... 562 g/l". */
function readResultLines(ctx: ExtractionContext): void {
  const { lines, rows } = ctx.doc;
  for (const heading of lines) {
    if (!RESULTS_HEADING.test(heading.text.trim()) || heading.text !== heading.upper || /CERTIFICATE/.test(heading.upper)) continue;
    const parameters: QualityParameter[] = [];
    const parts = [];
    for (let row = heading.row + 1; row < rows.length; row++) {
      const rowLines = rows[row]!.map((id) => lines[id]!);
      if (rowLines.some((l) => startsWithLabel(ctx.doc, l) && ctx.doc.hitsByLine[l.id]!.some((h) => h.colon))) break;
      const m = RESULT_LINE.exec(rowLines.map((l) => l.text).join(" "));
      const raw = m?.[2]?.replace(/\s/g, "") ?? "";
      const value = m && /^-?\d/.test(raw.replace(/^[<>≤≥]/, "")) ? parseNumber(raw.replace(/^[<>≤≥]/, ""), ctx.doc.decimalComma) : undefined;
      if (!m || value === undefined) break;
      const parameter: QualityParameter = { name: cleanValue(m[1]!.replace(/\.+$/, "")), value: /^[<>≤≥]/.test(raw) ? raw : value };
      if (m[3]) parameter.unit = cleanValue(m[3]);
      parameters.push(parameter);
      parts.push(...rowLines.map((l) => partOf(l)));
    }
    if (parameters.length > 0) return ctx.set("quality_parameters", parameters, foundOf(parts, CONFIDENCE.scan));
  }
}

export function extractCertificateOfQuality(ctx: ExtractionContext): void {
  ctx.reference("certificate_number", ["certificate_number", "reference_number", "number"]);
  ctx.date("date_of_issue", ["date"]);
  ctx.name("issuer", ["issuer", "issuing_authority", "signed_for"]);
  ctx.party("shipper", undefined, ["shipper", "exporter", "seller"]);
  ctx.party("consignee", undefined, ["consignee", "buyer"]);
  readVesselVoyage(ctx, false);
  ctx.reference("bl_number", ["bl_number"]);
  readPorts(ctx, ["port_of_loading"]);
  ctx.description("description_of_goods", ["description"]);
  scanContainers(ctx);
  readParameters(ctx);
  readResultLines(ctx);
  ctx.date("date_of_inspection", ["inspection_date"]);
  readPlaceDateLine(ctx);
}
