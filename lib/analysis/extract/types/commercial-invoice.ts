/** Commercial invoice: header labels, parties, and the line-item table with its total. */
import { normalizeCurrency } from "../../normalize/currency";
import { parseQuantity } from "../../normalize/quantity";
import { cleanValue } from "../../normalize/text";
import type { ExtractionContext } from "../context";
import { CONFIDENCE } from "../found";
import { scanHsCodes, scanIncoterm } from "../scan";
import { readTable, type Cells } from "../table";
import { readHeadingAbove, readLetterhead, readRoute } from "./fallbacks";
import { moneyOf, readPorts, readQuantity, readTotal, readVesselVoyage, readWeights } from "./shared";

interface LineItem {
  description?: string;
  quantity?: number;
  unit?: string;
  unit_price?: number;
  amount?: number;
}

function itemOf(cells: Cells, dc: boolean): LineItem | undefined {
  const item: LineItem = {};
  const description = cells.description && cleanValue(cells.description.text);
  if (description) item.description = description;
  const quantity = cells.quantity && (parseQuantity(cells.quantity.text, dc) ?? { value: moneyOf(cells.quantity.text, dc), unit: undefined });
  if (quantity?.value !== undefined) item.quantity = quantity.value;
  const unit = cells.unit ? cleanValue(cells.unit.text) : quantity?.unit;
  if (unit && /[A-Za-z]/.test(unit)) item.unit = unit;
  const price = cells.unit_price && moneyOf(cells.unit_price.text, dc);
  if (price !== undefined) item.unit_price = price;
  const amount = cells.amount && moneyOf(cells.amount.text, dc);
  if (amount !== undefined) item.amount = amount;
  return item.description && (item.quantity !== undefined || item.amount !== undefined) ? item : undefined;
}

function readLineItems(ctx: ExtractionContext): void {
  const table = readTable(ctx.doc, ["description"], CONFIDENCE.table);
  if (!table) return;
  readHeadingAbove(ctx, table);
  const rows = table.items.map((cells) => ({ cells, item: itemOf(cells, ctx.doc.decimalComma) })).filter((r) => r.item);
  if (rows.length === 0) return;
  const first = rows[0]!.cells.description!;
  ctx.set("line_items", rows.map((r) => r.item), first);
  const items = rows.map((r) => r.item!);
  if (items.length === 1) {
    if (items[0]!.unit_price !== undefined) ctx.set("unit_price", items[0]!.unit_price, rows[0]!.cells.unit_price ?? first);
  }
  if (items.length === 1 && items[0]!.quantity !== undefined) {
    ctx.set("quantity", items[0]!.quantity, rows[0]!.cells.quantity ?? first);
    const unit = items[0]!.unit;
    if (unit) ctx.set("quantity_unit", unit, rows[0]!.cells.quantity ?? first);
  }
  const total = table.totals?.amount;
  const totalValue = total && moneyOf(total.text, ctx.doc.decimalComma);
  if (total && totalValue !== undefined) ctx.set("total_amount", totalValue, total);
  else if (items.every((i) => i.amount !== undefined)) {
    ctx.set("total_amount", Math.round(items.reduce((s, i) => s + i.amount!, 0) * 100) / 100, rows[0]!.cells.amount ?? first);
  }
  const header = table.columns.map((c) => c.header).join(" ");
  for (const text of [header, total?.text ?? "", ...rows.map((r) => r.cells.amount?.text ?? "")]) {
    const currency = normalizeCurrency(text);
    if (currency) return ctx.set("currency", currency, total ?? first);
  }
}

export function extractCommercialInvoice(ctx: ExtractionContext): void {
  ctx.reference("invoice_number", ["invoice_number"]);
  ctx.date("invoice_date", ["invoice_date", "date"]);
  ctx.party("seller", "seller_address", ["seller", "shipper", "exporter", "beneficiary"]);
  readLetterhead(ctx, "seller", "seller_address");
  ctx.party("buyer", "buyer_address", ["buyer", "applicant", "consignee"]);
  ctx.party("consignee", undefined, ["consignee"]);
  readTotal(ctx, "total_amount", ["total_amount"]);
  ctx.text("currency", ["currency"]);
  if (typeof ctx.values.currency === "string" && !/^[A-Z]{3}$/.test(ctx.values.currency)) {
    const code = normalizeCurrency(ctx.values.currency);
    if (code) ctx.values.currency = code;
    else delete ctx.values.currency;
  }
  ctx.incoterm("incoterms", ["incoterms"]);
  readPorts(ctx);
  readVesselVoyage(ctx, false);
  readRoute(ctx, true);
  ctx.reference("bl_number", ["bl_number"]);
  ctx.reference("lc_number", ["lc_number"]);
  ctx.reference("contract_number", ["contract_number"]);
  readLineItems(ctx);
  ctx.description("description_of_goods", ["description"]);
  readQuantity(ctx);
  ctx.amount("unit_price", ["unit_price"]);
  readWeights(ctx, { gross: "gross_weight_kg", net: "net_weight_kg" });
  ctx.packages("number_of_packages", undefined, ["total_packages", "packages"]);
  ctx.country("country_of_origin", ["country_of_origin"]);
  scanHsCodes(ctx);
  scanIncoterm(ctx);
}
