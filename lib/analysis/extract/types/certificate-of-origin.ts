/** Certificate of origin: numbered boxes (exporter, consignee, transport, goods) and the issuing chamber. */
import { findCountryIn } from "../../normalize/country";
import { cleanValue } from "../../normalize/text";
import type { ExtractionContext } from "../context";
import { findLabelled } from "../find-value";
import { startsWithLabel } from "../document";
import { CONFIDENCE, foundOf, partOf } from "../found";
import { withoutContact } from "../names";
import { hsCodesIn, scanHsCodes } from "../scan";
import type { Table } from "../table";
import { cleanGoods, readPlaceDateLine, readRoute } from "./fallbacks";
import { fillFromTable, readCargoTable, readPorts, readVesselVoyage, readWeights } from "./shared";

/** An issuing body's name: "<PLACE> CHAMBER OF COMMERCE [AND INDUSTRY]", ministries, customs, export boards. */
const AUTHORITY_NAME =
  /(?:THE\s+)?((?:(?!(?:AND|OF|THE|STAMP|BY|SIGNATURE|SEEN|FOR|ISSUED)\b)[A-Z][A-Z&'-]*\s+){0,4}(?:BUSINESS\s+CHAMBER\b|CHAMBER\s+OF\s+(?:COMMERCE|INDUSTRY))(?:\s*(?:AND|&)\s*(?:INDUSTRY|COMMERCE|AGRICULTURE))?(?:\s+OF\s+[A-Z][A-Z]+(?:\s+[A-Z]+)?)?|MINISTRY\s+OF\s+[A-Z ]+|[A-Z ]*CUSTOMS\s+AUTHORITY|[A-Z ]*EXPORT\s+PROMOTION\s+[A-Z ]+)/;
const AUTHORITY_CONTEXT = /\b(?:SEEN FOR|LEGALI[SZ]ATION|SIGNATURE AND STAMP OF)\b/i;

/** The chamber or authority named on the certificate, preferring a line that names it alone. */
function readAuthority(ctx: ExtractionContext): void {
  const { lines } = ctx.doc;
  const heading = lines.find((l) => l.page === lines[0]!.page && !startsWithLabel(ctx.doc, l) && /CERTIFICATE/i.test(l.text));
  const top = lines.find((l) => heading && l.id < heading.id && AUTHORITY_WORDS.test(l.text));
  if (top) return ctx.set("issuing_authority", withoutContact(cleanValue(top.text)), foundOf([partOf(top)], CONFIDENCE.scan));
  let fallback: { name: string; line: (typeof lines)[number] } | undefined;
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i]!;
    const next = lines[i + 1];
    const text = next && next.page === line.page && next.x0 <= line.x0 + 1 ? `${line.upper} ${next.upper}` : line.upper;
    const m = AUTHORITY_NAME.exec(text);
    if (!m || m.index >= line.upper.length) continue;
    const name = cleanValue(m[1]!);
    if (!AUTHORITY_CONTEXT.test(line.text) && !/\bBY\b|\bCERTIF/i.test(line.text.slice(0, m.index))) {
      return ctx.set("issuing_authority", name, foundOf([partOf(line, m.index)], CONFIDENCE.scan));
    }
    fallback ??= { name, line };
  }
  if (fallback) ctx.set("issuing_authority", fallback.name, foundOf([partOf(fallback.line)], CONFIDENCE.scan));
}

/** HS codes and the invoice number printed in the goods table. */
function readTableReferences(ctx: ExtractionContext, table: Table | undefined): void {
  const item = table?.items[0];
  if (!item) return;
  const invoice = item.invoice;
  // A narrow invoice column wraps one reference over several lines: join without spaces.
  const reference = invoice && invoice.parts.map((p) => p.line.text.slice(p.start, p.end).trim()).join("");
  if (invoice && reference && /\d/.test(reference)) ctx.set("invoice_number", reference, invoice);
  const codes = [item.hs, item.description].flatMap((cell) => (cell ? hsCodesIn(cell.text) : []));
  if (codes.length > 0) ctx.set("hs_codes", [...new Set(codes)], (item.hs ?? item.description)!);
}
const ORIGIN_PHRASE = /(?:GOODS\s+(?:ARE\s+)?OF|ARE\s+OF|ORIGINATE\s+IN|ORIGINATING\s+IN|PRODUCED\s+IN|MANUFACTURED\s+IN)\s+([A-Z][A-Z .']+)/i;
/** Words of an issuing body's name, for the heading of a chamber's letter. */
/** German chambers join the word to their kind ("HANDELSKAMMER HAMBURG"). */
const AUTHORITY_WORDS = /\b(?:CHAMBER|FEDERA[CÇ][AÃ]O|FEDERATION|ASSOCIA[CÇ]|MINISTRY|AUTHORITY|COUNCIL|BOARD|C[AÁ]MARA|CHAMBRE|CAMERA|DIRECTORATE|CUSTOMS)|KAMMER\b/i;

export function extractCertificateOfOrigin(ctx: ExtractionContext): void {
  ctx.reference("certificate_number", ["certificate_number", "reference_number", "number"]);
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
  readAuthority(ctx);
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
  readTableReferences(ctx, table);
  ctx.reference("invoice_number", ["invoice_number"]);
  readPlaceDateLine(ctx);
}
