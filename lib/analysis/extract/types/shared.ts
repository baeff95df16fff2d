/** Readers shared by several document types: vessel and voyage, ports, money, weights with table totals. */
import { findNumbers } from "../../normalize/amount";
import { normalizeCurrency } from "../../normalize/currency";
import { findDates } from "../../normalize/date";
import { parsePackages, parseQuantity } from "../../normalize/quantity";
import { cleanValue } from "../../normalize/text";
import { parseVolumeCbm } from "../../normalize/volume";
import { parseWeightKg, weightUnitFactor } from "../../normalize/weight";
import type { ExtractionContext } from "../context";
import type { IndexedLine } from "../doc-index";
import type { Doc } from "../document";
import { findLabelled } from "../find-value";
import { CONFIDENCE, foundOf, narrowFound, type Found } from "../found";
import { readTable, type Cells, type ColumnKind, type Table } from "../table";
import { headerColumns, type Column } from "../table-header";

const VOYAGE_MARKER = /\s*(?:\bVOY(?:AGE)?\.?\s*(?:NO\.?)?|\bV\.\s?)\s*[:#]?\s*/i;
/** "NORTHERN STARLING from ALEXANDRIA to RIGA": the route after a vessel name is not part of it. */
const ROUTE_TAIL = /\s+FROM\s+.+$/i;
/** "AURORA BREEZE / 537N" under a "Vessel / Voyage" title. */
const SLASH_VOYAGE = /^(.+?)\s*\/\s*(\S*\d\S*)$/;
const CURRENCY_NEAR = /(?:[A-Z]{3}|US\$|\$|€|£|¥)\s*$/;

/** vessel and voyage from "Vessel/Voyage: JAZAN/1644/E", "MSC GENEVA V.248W" or separate labels. */
export function readVesselVoyage(ctx: ExtractionContext, withVoyage: boolean): void {
  const combined = findLabelled(ctx.doc, ["vessel_voyage"], (f) => cleanValue(f.text) || undefined, { maxLines: 2 });
  if (combined) {
    const text = combined.value;
    const marker = VOYAGE_MARKER.exec(text);
    const slash = text.indexOf("/");
    let vessel = text;
    let voyage: string | undefined;
    if (marker && marker.index > 0) [vessel, voyage] = [text.slice(0, marker.index), text.slice(marker.index + marker[0].length)];
    else if (slash > 0) [vessel, voyage] = [text.slice(0, slash), text.slice(slash + 1)];
    ctx.set("vessel", cleanValue(vessel.replace(ROUTE_TAIL, "")), combined.found);
    if (withVoyage && voyage && /\d/.test(voyage)) ctx.set("voyage", cleanValue(voyage), combined.found);
  }
  const vessel = findLabelled(ctx.doc, ["vessel"], (f) => cleanValue(f.text) || undefined);
  if (vessel) {
    const marker = VOYAGE_MARKER.exec(vessel.value);
    const slashVoyage = SLASH_VOYAGE.exec(vessel.value);
    if (slashVoyage) {
      ctx.set("vessel", cleanValue(slashVoyage[1]!), vessel.found);
      if (withVoyage) ctx.set("voyage", slashVoyage[2]!, vessel.found);
    } else if (marker && marker.index > 0) {
      ctx.set("vessel", cleanValue(vessel.value.slice(0, marker.index)), vessel.found);
      if (withVoyage) ctx.set("voyage", cleanValue(vessel.value.slice(marker.index + marker[0].length)), vessel.found);
    } else ctx.set("vessel", cleanValue(vessel.value.replace(ROUTE_TAIL, "")), vessel.found);
  }
  if (withVoyage) ctx.text("voyage", ["voyage"]);
}

const SHORT_PORT_LABELS: Readonly<Record<string, string>> = { port_of_loading: "from", port_of_discharge: "to" };

/** Ports by their labels; "From:"/"To:" count too unless `strict` (letters, where "To:" is the addressee). */
export function readPorts(ctx: ExtractionContext, keys: readonly string[] = ["port_of_loading", "port_of_discharge"], strict = false): void {
  for (const key of keys) {
    const short = SHORT_PORT_LABELS[key];
    ctx.port(key, short && !strict ? [key, short] : [key]);
  }
}

/** The amount of a money text: the number next to a currency, else the last number. */
export function moneyOf(text: string, decimalComma = false): number | undefined {
  const numbers = findNumbers(text.replace(/#/g, " ").replace(/([A-Z$€£¥])(?=\d)/g, "$1 "), decimalComma);
  const spaced = text.replace(/#/g, " ").replace(/([A-Z$€£¥])(?=\d)/g, "$1 ");
  const near = numbers.find((n) => CURRENCY_NEAR.test(spaced.slice(0, n.index)) && normalizeCurrency(spaced.slice(Math.max(0, n.index - 5), n.index)));
  return (near ?? numbers[numbers.length - 1])?.value;
}

/** Rows above a TOTAL row in which its table's column titles are looked for. */
const TITLES_ABOVE_TOTAL = 8;

/** The column title over `line` when a row of column titles with an amount column stands a few rows above it on its page. */
function columnOver(doc: Doc, line: IndexedLine): Column | undefined {
  for (let row = line.row - 1; row >= Math.max(0, line.row - TITLES_ABOVE_TOTAL); row--) {
    if (doc.lines[doc.rows[row]![0]!]!.page !== line.page) return undefined;
    const columns = headerColumns(doc, row);
    if (!columns.some((c) => c.kind === "amount")) continue;
    const overlap = (c: Column) => Math.min(c.x1, line.x1) - Math.max(c.x0, line.x0);
    return columns.filter((c) => overlap(c) > 0).sort((a, b) => overlap(b) - overlap(a))[0];
  }
  return undefined;
}

/** total_amount and currency from a labelled total. */
export function readTotal(ctx: ExtractionContext, key: string, labels: readonly string[]): void {
  let rowCurrency: string | undefined;
  const total = findLabelled(ctx.doc, labels, (f, hit) => {
    const row = ctx.doc.rows[hit.line.row]!.map((id) => ctx.doc.lines[id]!).filter((l) => l.x0 > hit.line.x0);
    // A TOTAL row under a table's titles: the amount is the cell under the amount column, not the first cell (the quantity's total).
    const column = f.parts[0]!.line !== hit.line ? columnOver(ctx.doc, f.parts[0]!.line) : undefined;
    if (column && column.kind !== "amount" && column.kind !== "currency") {
      const amount = row.find((l) => columnOver(ctx.doc, l)?.kind === "amount" && /\d/.test(l.text));
      return amount ? moneyOf(amount.text, ctx.doc.decimalComma) : undefined;
    }
    // "TOTAL:  5,000 MT  USD485,000.00": when the next cell is a quantity, the money is further along the row.
    if (normalizeCurrency(f.text) === undefined) {
      const money = row.find((l) => normalizeCurrency(l.text) && /\d/.test(l.text));
      if (money) return moneyOf(money.text, ctx.doc.decimalComma);
    }
    // "TOTAL   USD   88,400.00": the currency in a cell of its own, the amount in the next.
    if (!/\d/.test(f.text) && normalizeCurrency(f.text)) {
      const amount = row.find((l) => l.x0 >= f.parts[0]!.line.x1 && /\d/.test(l.text));
      rowCurrency = normalizeCurrency(f.text);
      return amount ? moneyOf(amount.text, ctx.doc.decimalComma) : undefined;
    }
    return moneyOf(f.text, ctx.doc.decimalComma);
  });
  if (!total) return;
  ctx.set(key, total.value, total.found);
  const currency = rowCurrency ?? normalizeCurrency(total.found.text);
  if (currency) ctx.set("currency", currency, total.found);
}

/** quantity and quantity_unit from "Quantity: 5,000 PCS". */
export function readQuantity(ctx: ExtractionContext, labels: readonly string[] = ["quantity"]): void {
  const result = findLabelled(ctx.doc, labels, (f) => parseQuantity(f.text, ctx.doc.decimalComma));
  if (!result) return;
  ctx.set("quantity", result.value.value, result.found);
  ctx.set("quantity_unit", result.value.unit, result.found);
}

export function readWeights(ctx: ExtractionContext, keys: { gross?: string; net?: string; tare?: string; cbm?: string }): void {
  if (keys.gross) ctx.weight(keys.gross, ["total_gross_weight", "gross_weight"]);
  if (keys.net) ctx.weight(keys.net, ["total_net_weight", "net_weight"]);
  if (keys.tare) ctx.weight(keys.tare, ["tare_weight"]);
  if (keys.cbm) ctx.volume(keys.cbm, ["total_measurement", "measurement"]);
}

/** The cargo table of weights and packages (B/L, packing list, weight certificate), if any. */
export function readCargoTable(ctx: ExtractionContext): Table | undefined {
  return readTable(ctx.doc, [], CONFIDENCE.table);
}

function cellTotal(table: Table, kind: ColumnKind, parse: (text: string, header: string) => number | undefined): { value: number; found: Found } | undefined {
  const header = table.columns.find((c) => c.kind === kind)?.header ?? "";
  const total = table.totals?.[kind];
  if (total) {
    const value = parse(total.text, header);
    if (value !== undefined) return { value, found: total };
  }
  const cells = table.items.map((item) => item[kind]).filter((c): c is Found => c !== undefined);
  const values = cells.map((c) => parse(c.text, header));
  if (cells.length === 0 || values.some((v) => v === undefined)) return undefined;
  const value = Math.round((values as number[]).reduce((a, b) => a + b, 0) * 1000) / 1000;
  if (cells.length === 1) return { value, found: cells[0]! };
  return { value, found: { ...foundOf(cells.flatMap((c) => c.parts), CONFIDENCE.table), confidence: CONFIDENCE.summed } };
}

/** Fills weights, volume and packages from a cargo table's totals (or the sum of its rows). */
export function fillFromTable(ctx: ExtractionContext, table: Table | undefined, keys: { gross?: string; net?: string; tare?: string; cbm?: string; packages?: string; packageType?: string }): void {
  if (!table) return;
  const dc = ctx.doc.decimalComma;
  const weight = (text: string, header: string) => parseWeightKg(text, weightUnitFactor(header) ?? 1, dc);
  const set = (key: string | undefined, result: { value: number; found: Found } | undefined) => {
    if (key && result) ctx.set(key, result.value, result.found);
  };
  set(keys.gross, cellTotal(table, "gross", weight));
  set(keys.net, cellTotal(table, "net", weight));
  set(keys.tare, cellTotal(table, "tare", weight));
  set(keys.cbm, cellTotal(table, "measurement", (t) => parseVolumeCbm(t, 1, dc)));
  if (keys.packages && !ctx.has(keys.packages)) setPackages(ctx, table, keys.packages, keys.packageType);
}

/** Packages from the TOTAL row, else the sum of the rows when they share one kind of package. */
function setPackages(ctx: ExtractionContext, table: Table, key: string, typeKey: string | undefined): void {
  const cellOf = (cells: Cells | undefined) => cells?.packages ?? cells?.description;
  const read = (cells: Cells | undefined) => {
    const cell = cellOf(cells);
    const packages = cell && parsePackages(cell.text);
    return cell && packages ? { packages, found: narrowFound(cell, packages.index, packages.index + packages.length) } : undefined;
  };
  const total = read(table.totals);
  const rows = table.items.map(read);
  const types = new Set(rows.map((r) => r?.packages.type.toUpperCase()));
  const summed = rows.every((r) => r) && types.size === 1 && rows.length > 0;
  const chosen = total ?? (summed ? rows[0] : undefined);
  if (!chosen) return;
  const count = total ? total.packages.count : rows.reduce((sum, r) => sum + r!.packages.count, 0);
  ctx.set(key, count, chosen.found);
  if (typeKey) ctx.set(typeKey, chosen.packages.type, chosen.found);
}

/** "Place and Date of Issue: SANTOS, AUGUST 13, 2024" → "SANTOS". */
export function readPlaceOfIssue(ctx: ExtractionContext): void {
  const result = findLabelled(ctx.doc, ["place_of_issue", "date"], (f, hit) => {
    if (!/PLACE|ISSUED AT/.test(hit.line.upper.slice(hit.start, hit.valueStart))) return undefined;
    const date = findDates(f.text, ctx.doc.dateContext)[0];
    const before = date ? f.text.slice(0, date.index).replace(/\s+(?:ON|DATED?)\s*$/i, "") : f.text;
    const place = cleanValue(date ? `${before} ${f.text.slice(date.index + date.length)}` : f.text);
    return /[A-Za-z]{2}/.test(place) ? place : undefined;
  });
  if (result) ctx.set("place_of_issue", result.value, result.found);
}

/** "ABOUT"/"+/- 5%"/"5% MORE OR LESS" → a tolerance in percent. */
export function toleranceOf(text: string): number | undefined {
  const pct = /(\d{1,2}(?:\.\d+)?)\s*(?:%|PCT|PERCENT)/i.exec(text);
  if (pct && /\+\s*\/?\s*-|MORE OR LESS|TOLERANCE|M\/L|PLUS OR MINUS|±/i.test(text)) return Number(pct[1]);
  return /\bABOUT\b|\bAPPROX/i.test(text) ? 10 : undefined;
}

