/** The goods table of invoices and contracts, and their total line. */
import { normalizeCurrency } from "../../normalize/currency";
import { parseQuantity } from "../../normalize/quantity";
import { cleanValue } from "../../normalize/text";
import type { ExtractionContext } from "../context";
import { CONFIDENCE, foundOf, partOf, type Found } from "../found";
import { readTable, type Cells, type Table } from "../table";
import { readHeadingAbove } from "./fallbacks";
import { moneyOf } from "./shared";

interface LineItem {
  description?: string;
  quantity?: number;
  unit?: string;
  unit_price?: number;
  amount?: number;
}

/** The unit a column title states for its cells: "Quantity (MT)", "Price/MT", "Price per MT". */
const TITLE_UNIT: ReadonlyArray<["quantity" | "unit_price", RegExp]> = [
  ["quantity", /\(\s*([A-Za-z]{1,6})\s*\)/],
  ["unit_price", /PRICE\s*(?:\/|PER\s)\s*([A-Za-z]{1,6})\b/i],
];

function titleUnit(table: Table): string | undefined {
  for (const [kind, pattern] of TITLE_UNIT) {
    const m = pattern.exec(table.columns.find((c) => c.kind === kind)?.header ?? "");
    const unit = m?.[1]?.toUpperCase();
    if (unit && unit !== "UNIT" && normalizeCurrency(unit) === undefined) return unit;
  }
  return undefined;
}

function itemOf(cells: Cells, dc: boolean, headerUnit: string | undefined): LineItem | undefined {
  const item: LineItem = {};
  const describing = cells.description ?? cells.specification;
  const description = describing && cleanValue(describing.text);
  if (description) item.description = description;
  const quantity = cells.quantity && (parseQuantity(cells.quantity.text, dc) ?? { value: moneyOf(cells.quantity.text, dc), unit: undefined });
  if (quantity?.value !== undefined) item.quantity = quantity.value;
  const unit = (cells.unit ? cleanValue(cells.unit.text) : quantity?.unit) ?? headerUnit;
  if (unit && /[A-Za-z]/.test(unit)) item.unit = unit;
  const price = cells.unit_price && moneyOf(cells.unit_price.text, dc);
  if (price !== undefined) item.unit_price = price;
  const amount = cells.amount && moneyOf(cells.amount.text, dc);
  if (amount !== undefined) item.amount = amount;
  return item.description && (item.quantity !== undefined || item.amount !== undefined) ? item : undefined;
}

/**
 * The goods table: line items (when `withItems`), and for a single item its
 * description, quantity, unit and price; the total from the TOTAL row or a
 * "TOTAL ...: USD 12,200.00" line; the currency from the header or amounts.
 */
export function readGoodsTable(ctx: ExtractionContext, withItems: boolean): void {
  const table = readTable(ctx.doc, ["description"], CONFIDENCE.table) ?? readTable(ctx.doc, ["specification", "quantity"], CONFIDENCE.table);
  if (!table) return;
  readHeadingAbove(ctx, table);
  const headerUnit = titleUnit(table);
  const rows = table.items.map((cells) => ({ cells, item: itemOf(cells, ctx.doc.decimalComma, headerUnit) })).filter((r) => r.item);
  dropRunningNumbers(rows.map((r) => r.item!));
  if (rows.length === 0) return;
  const first = (rows[0]!.cells.description ?? rows[0]!.cells.specification)!;
  if (withItems) ctx.set("line_items", rows.map((r) => r.item), first);
  const items = rows.map((r) => r.item!);
  if (items.length === 1) {
    if (items[0]!.description) ctx.set("description_of_goods", items[0]!.description, first);
    if (items[0]!.unit_price !== undefined) ctx.set("unit_price", items[0]!.unit_price, rows[0]!.cells.unit_price ?? first);
  }
  if (items.length === 1 && items[0]!.quantity !== undefined) {
    ctx.set("quantity", items[0]!.quantity, rows[0]!.cells.quantity ?? first);
    const unit = items[0]!.unit;
    if (unit) ctx.set("quantity_unit", unit, rows[0]!.cells.quantity ?? first);
  }
  const totalQuantity = table.totals?.quantity;
  const quantity = totalQuantity && parseQuantity(totalQuantity.text, ctx.doc.decimalComma);
  if (totalQuantity && quantity) {
    ctx.set("quantity", quantity.value, totalQuantity);
    ctx.set("quantity_unit", quantity.unit, totalQuantity);
  }
  sumQuantities(ctx, rows);
  const total = table.totals?.amount;
  const totalValue = total && moneyOf(total.text, ctx.doc.decimalComma);
  if (total && totalValue !== undefined) ctx.set("total_amount", totalValue, total);
  else readTotalLine(ctx);
  sumAmounts(ctx, rows);
  const header = table.columns.map((c) => c.header).join(" ");
  const totalLine = ctx.evidence.total_amount?.text ?? "";
  const currencyCells = [table.totals?.currency, ...rows.map((r) => r.cells.currency)];
  for (const text of [header, total?.text ?? "", totalLine, ...currencyCells.map((c) => c?.text ?? ""), ...rows.map((r) => r.cells.amount?.text ?? "")]) {
    const currency = normalizeCurrency(text);
    if (currency) return ctx.set("currency", currency, total ?? first);
  }
}

const RUNNING_NUMBER = /^(\d{1,3})[.)]?\s+(?=\S)/;

/**
 * "1 GREEN ARABICA COFFEE", "2 ...": a running number printed before each
 * description (its "No." titled over the description column) numbers the
 * lines; it is no part of the goods. Only numbers that count 1, 2, 3 down the
 * rows are dropped, so "25 BIG BAGS ..." stays whole.
 */
function dropRunningNumbers(items: LineItem[]): void {
  const numbered = items.every((item, i) => Number(RUNNING_NUMBER.exec(item.description ?? "")?.[1]) === i + 1);
  if (!numbered) return;
  for (const item of items) item.description = item.description!.replace(RUNNING_NUMBER, "");
}

/** Without a TOTAL row or total line, the total is the sum of the line amounts. */
function sumAmounts(ctx: ExtractionContext, rows: Array<{ cells: Cells; item?: LineItem }>): void {
  if (ctx.has("total_amount") || rows.length < 2 || rows.some((r) => r.item!.amount === undefined)) return;
  const sum = Math.round(rows.reduce((a, r) => a + r.item!.amount!, 0) * 100) / 100;
  const parts = rows.flatMap((r) => r.cells.amount!.parts);
  ctx.set("total_amount", sum, { ...foundOf(parts, CONFIDENCE.table), confidence: CONFIDENCE.summed });
}

/**
 * Without a TOTAL row, the invoiced quantity is the sum of the line items when
 * they share one unit (the first row is only one lot of the goods). Rows in
 * different units cannot be added, and the quantity stays unread.
 */
function sumQuantities(ctx: ExtractionContext, rows: Array<{ cells: Cells; item?: LineItem }>): void {
  if (ctx.has("quantity") || rows.length < 2) return;
  const items = rows.map((r) => r.item!);
  const units = new Set(items.map((i) => i.unit?.toUpperCase()));
  if (items.some((i) => i.quantity === undefined) || units.size !== 1) return;
  const sum = Math.round(items.reduce((a, i) => a + i.quantity!, 0) * 1000) / 1000;
  const cells = rows.map((r) => r.cells.quantity).filter((c): c is Found => c !== undefined);
  if (cells.length === 0) return;
  const found = { ...foundOf(cells.flatMap((c) => c.parts), CONFIDENCE.table), confidence: CONFIDENCE.summed };
  ctx.set("quantity", sum, found);
  const unit = items[0]!.unit;
  if (unit) ctx.set("quantity_unit", unit, found);
}

const TOTAL_LINE = /^(?:GRAND\s+)?TOTAL\b[^:]{0,40}:\s*(.*\d.*)$/i;

/** "TOTAL CIF RIGA: USD 12,200.00": a total line the labels did not catch. */
function readTotalLine(ctx: ExtractionContext): void {
  for (const line of ctx.doc.lines) {
    const m = TOTAL_LINE.exec(line.text);
    if (!m || /QUANTITY|WEIGHT|PACKAGES|MEASUREMENT|CBM|KGS?\b/i.test(line.text)) continue;
    const value = moneyOf(m[1]!, ctx.doc.decimalComma);
    if (value === undefined) continue;
    const found = foundOf([partOf(line, line.text.length - m[1]!.length)], CONFIDENCE.scan);
    ctx.set("total_amount", value, found);
    const currency = normalizeCurrency(m[1]!);
    if (currency) ctx.set("currency", currency, found);
    return;
  }
}
