/**
 * Unlabelled conventions, used only when labels gave nothing: a route "FROM X TO Y", the
 * "PLACE, DATE" line above a signature, the goods heading above a table.
 */
import { findDates } from "../../normalize/date";
import { normalizePort } from "../../normalize/port";
import { parsePackages } from "../../normalize/quantity";
import { cleanValue } from "../../normalize/text";
import type { ExtractionContext } from "../context";
import { startsWithLabel } from "../document";
import { findLabelled } from "../find-value";
import { CONFIDENCE, foundOf, narrowFound, partOf } from "../found";
import type { Table } from "../table";
import { COMPANY_NAME } from "./letterhead";

const ROUTE = /\bFROM\s+(.+?)\s+TO\s+(.+?)\s*(?=$|[,;]|\s(?:BY|PER|VIA|ON|VESSEL)\b)/i;
const VESSEL_PHRASE = /\b(?:BY\s+SEA\s+)?(?:PER|BY)\s+(?:(?:VESSEL|M\.?V\.?|S\.?S\.?)\s+)?(?!SEA\b|AIR\b|ROAD\b)([A-Z][A-Z0-9 .'-]+?)(?=\s+FROM\b|\s*$|[,;])/i;
const PLACE_DATE_LINE = /^([A-Z][A-Za-z .'()-]+),\s*(.+)$/;

/** Ports and vessel from "BY SEA PER VESSEL FROM X TO Y" or "NORTHERN STAR from A to B". */
export function readRoute(ctx: ExtractionContext, withVessel: boolean): void {
  for (const line of ctx.doc.lines) {
    const route = ROUTE.exec(line.text);
    if (!route) continue;
    const from = normalizePort(route[1]!.replace(/^.*:\s*/, ""));
    const to = normalizePort(route[2]!);
    const found = foundOf([partOf(line, route.index, route.index + route[0].length)], CONFIDENCE.scan);
    if (from) ctx.set("port_of_loading", from, found);
    if (to) ctx.set("port_of_discharge", to, found);
    if (withVessel) {
      const vessel = VESSEL_PHRASE.exec(line.text.slice(0, route.index)) ?? VESSEL_PHRASE.exec(ctx.doc.lines[line.id - 1]?.text ?? "");
      if (vessel) ctx.set("vessel", cleanValue(vessel[1]!), found);
    }
    return;
  }
}

/** The date of a "PLACE, DATE" line (issue line above a signature), as a last resort for date_of_issue. */
export function readPlaceDateLine(ctx: ExtractionContext, key = "date_of_issue"): void {
  if (ctx.has(key)) return;
  for (const line of ctx.doc.lines) {
    const m = PLACE_DATE_LINE.exec(line.text);
    if (!m) continue;
    const date = findDates(m[2]!, ctx.doc.dateContext)[0];
    if (date && cleanValue(m[2]!.slice(date.index + date.length)) === "" && date.index === 0) {
      return ctx.set(key, date.iso, foundOf([partOf(line)], CONFIDENCE.scan));
    }
  }
}

/** A goods heading printed just above a table header (a lone line without label or number). */
export function readHeadingAbove(ctx: ExtractionContext, table: Table | undefined, key = "description_of_goods"): void {
  if (!table || ctx.has(key)) return;
  const headerLine = ctx.doc.lines[ctx.doc.rows[table.headerRow]![0]!]!;
  const row = table.headerRow - 1;
  const ids = ctx.doc.rows[row];
  if (!ids || ids.length !== 1) return;
  const line = ctx.doc.lines[ids[0]!]!;
  if (line.page !== headerLine.page || startsWithLabel(ctx.doc, line) || /\d/.test(line.text) || !/[A-Z]{3}/.test(line.text)) return;
  ctx.set(key, cleanValue(line.text), foundOf([partOf(line)], CONFIDENCE.scan));
}

/** Goods text without its packages prefix ("1,420 BAGS SAID TO CONTAIN:") or trailing HS code. */
export function cleanGoods(text: string): string {
  return cleanValue(
    text
      .replace(/^\s*[\d.,]+\s*(?:X\s+)?(?:[A-Z()]+\s+){1,3}?(?:OF|SAID\s+TO\s+CONTAIN:?|S\.?T\.?C\.?:?|CONTAINING:?)\s+/i, "")
      .replace(/\s+(?:HS|H\.S\.)(?:\s*CODE)?\b.*$/i, "")
      .replace(/\s*"[A-Z]{1,2}"\s*/g, " "),
  );
}

const CARRIER_NAME = /\b(?:SHIPPING|LINES?|NAVIGATION|MARITIME|CONTAINER|CARRIERS?|OCEAN|MARINE|STEAMSHIP|LOGISTICS|EXPRESS)\b/i;
/** Carrier names are printed in the top part of the first page. */
const CARRIER_TOP = 0.25;

/** The carrier: its label, else its name in the heading of the first page, else the signature box. */
export function readCarrier(ctx: ExtractionContext): void {
  ctx.name("carrier", ["carrier"]);
  const page = ctx.doc.lines[0]?.page;
  const heading = ctx.doc.lines.find(
    (l) => l.page === page && l.y0 < CARRIER_TOP * l.page.height && CARRIER_NAME.test(l.text) && !/BILL OF LADING|WAYBILL|TERMS/i.test(l.text) && !startsWithLabel(ctx.doc, l),
  );
  if (heading) ctx.set("carrier", cleanValue(heading.text), foundOf([partOf(heading)], CONFIDENCE.scan));
  const signed = findLabelled(ctx.doc, ["carrier_signature"], (f) => {
    const name = cleanValue(f.text.replace(/\bAS (?:CARRIER|AGENT).*$/i, ""));
    return COMPANY_NAME.test(name) || CARRIER_NAME.test(name) ? name : undefined;
  });
  if (signed) ctx.set("carrier", signed.value, signed.found);
}

const PACKAGES_LINE = /^\s*[\d.,]+\s*(?:X\s+)?[A-Z]/i;

/** An unlabelled goods line opening with its packages: "1,800 BAGS BLACK PEPPER WHOLE". */
export function readPackagesLine(ctx: ExtractionContext, countKey: string, typeKey?: string): void {
  for (const line of ctx.doc.lines) {
    if (!PACKAGES_LINE.test(line.text) || startsWithLabel(ctx.doc, line)) continue;
    const packages = parsePackages(line.text);
    if (!packages || packages.index > 0) continue;
    const found = foundOf([partOf(line)], CONFIDENCE.scan);
    ctx.set(countKey, packages.count, narrowFound(found, 0, packages.length));
    if (typeKey) ctx.set(typeKey, packages.type, narrowFound(found, 0, packages.length));
    const goods = cleanGoods(line.text.slice(packages.length).replace(/^\s*(?:OF|SAID TO CONTAIN:?|STC:?)(?:\s+|$)/i, ""));
    if (goods && !/\d{3}/.test(goods)) ctx.set("description_of_goods", goods, narrowFound(found, packages.length, line.text.length));
    return;
  }
}

const SHIPMENT_SENTENCE = /\bSHIPMENT OF\s+(.+?)\s+FROM\s+(.+?)\s+TO\s+(.+?)(?=\s+(?:AND|BY|PER|VIA|ON|UNDER|WITH)\b|[,;.]|$)/i;

/** "covering the shipment of HULLED SESAME SEEDS from MELBOURNE to APAPA" in a letter, even across a line break. */
export function readShipmentSentence(ctx: ExtractionContext): void {
  const { lines } = ctx.doc;
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i]!;
    const next = lines[i + 1];
    const text = next && next.page === line.page ? `${line.text} ${next.text}` : line.text;
    const m = SHIPMENT_SENTENCE.exec(text);
    if (!m) continue;
    const found = foundOf(next ? [partOf(line), partOf(next)] : [partOf(line)], CONFIDENCE.scan);
    ctx.set("description_of_goods", cleanValue(m[1]!), found);
    const from = normalizePort(m[2]!);
    const to = normalizePort(m[3]!);
    if (from) ctx.set("port_of_loading", from, found);
    if (to) ctx.set("port_of_discharge", to, found);
    return;
  }
}
