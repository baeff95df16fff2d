/** The invoice against the credit's money and quantity: UCP 600 art. 18(a)(iii), 18(b), 30. */
import { amendedNote } from "../amendments";
import { figureDoubt, withDoubt } from "../doubt";
import { readNumber, readText } from "../fields";
import { amendmentDocs, docsOfType, groupCopies, type Doc, type Presentation } from "../presentation";
import { findQuantity, saysAboutAmount, toQuantity, type Quantity } from "../quantities";
import { formatNumber, report, type RuleSpec } from "../rule-kit";
import type { Finding } from "../types";

const AMOUNT_WITHIN_CREDIT: RuleSpec = {
  id: "invoice.amount_within_credit",
  reference: "UCP 600 art. 18(b), 30(a)",
  severity: "discrepancy",
  title: "Invoice amount not above the credit amount plus its tolerance",
};
const INVOICE_CURRENCY: RuleSpec = {
  id: "invoice.currency",
  reference: "UCP 600 art. 18(a)(iii)",
  severity: "discrepancy",
  title: "Invoice made out in the currency of the credit",
};
const QUANTITY_TOLERANCE: RuleSpec = {
  id: "invoice.quantity_within_tolerance",
  reference: "UCP 600 art. 30(a), 30(b)",
  severity: "discrepancy",
  title: "Invoiced quantity within the credit quantity and its tolerance",
};

/** Cents: amounts are compared to the cent. */
const AMOUNT_EPSILON = 0.005;

function creditText(p: Presentation): string {
  const f = p.credit?.fields ?? {};
  const conditions = Array.isArray(f.additional_conditions) ? f.additional_conditions.join(" ") : "";
  return [readText(f, "description_of_goods") ?? "", conditions, ...(p.credit?.docs.map((d) => d.text ?? "") ?? [])].join(" ");
}

/** The :39A: plus tolerance, else 10% when the credit says "about" its amount, else none. */
function amountTolerancePct(p: Presentation): number {
  const plus = readNumber(p.credit?.fields ?? {}, "tolerance_plus_pct");
  if (plus !== undefined) return plus;
  return saysAboutAmount(creditText(p)) ? p.tolerances.aboutPct : 0;
}

function checkAmount(p: Presentation, invoices: Doc[][]): Finding[] {
  const credit = p.credit!.fields;
  const amount = readNumber(credit, "amount");
  const currency = readText(credit, "currency") ?? "";
  const totals = invoices.map((g) => readNumber(g[0]!.fields, "total_amount"));
  if (amount === undefined || totals.some((t) => t === undefined) || !totals.length) return [];
  const total = totals.reduce((s: number, t) => s + t!, 0);
  const pct = amountTolerancePct(p);
  const ceiling = amount * (1 + pct / 100);
  if (total <= ceiling + AMOUNT_EPSILON) return [];
  const several = invoices.length > 1 ? ` (${invoices.length} invoices together)` : "";
  const amountNote = amendedNote(p.credit, "amount");
  const toleranceNote = amendedNote(p.credit, "tolerance_plus_pct");
  const note = amountNote === toleranceNote ? amountNote : `${amountNote}${toleranceNote ? `; tolerance${toleranceNote}` : ""}`;
  // The band a true invoice amount falls in: a figure 1,000 times off that lands in it was read in the other convention.
  const floor = amount * (1 - Math.max(pct, p.tolerances.aboutPct) / 100);
  const doubt = figureDoubt(total, amount, (a) => a >= floor && a <= ceiling + AMOUNT_EPSILON, "the invoice amount");
  return [
    withDoubt(report(AMOUNT_WITHIN_CREDIT, {
      documents: [...invoices.flat(), ...amendmentDocs(p.credit!, "amount", "tolerance_plus_pct")],
      fields: ["total_amount"],
      expected: `at most ${currency} ${formatNumber(ceiling)} (credit ${formatNumber(amount)} +${pct}%${note})`,
      found: `${currency} ${formatNumber(total)}`,
      message: `Invoice amount ${currency} ${formatNumber(total)}${several} exceeds the credit amount ${currency} ${formatNumber(amount)} plus its ${pct}% tolerance${note}.`,
    }), doubt ? [doubt] : []),
  ];
}

function checkCurrency(p: Presentation, invoices: Doc[]): Finding[] {
  const expected = readText(p.credit!.fields, "currency")?.toUpperCase();
  if (!expected) return [];
  return invoices.flatMap((doc) => {
    const found = readText(doc.fields, "currency")?.toUpperCase();
    if (!found || found === expected) return [];
    return [
      report(INVOICE_CURRENCY, {
        documents: [doc],
        fields: ["currency"],
        expected,
        found,
        message: `Invoice is made out in ${found}, not in the currency of the credit (${expected}).`,
      }),
    ];
  });
}

function invoicedQuantity(doc: Doc): Quantity | undefined {
  const value = readNumber(doc.fields, "quantity");
  const unit = readText(doc.fields, "quantity_unit");
  return value !== undefined && unit ? toQuantity(value, unit) : undefined;
}

function checkQuantity(p: Presentation, invoices: Doc[][]): Finding[] {
  const description = readText(p.credit!.fields, "description_of_goods");
  const wanted = description ? findQuantity(description) : undefined;
  const found = invoices.map((g) => invoicedQuantity(g[0]!));
  if (!wanted || !found.length || found.some((q) => !q || q.unit !== wanted.unit)) return [];
  const total = found.reduce((s, q) => s + q!.value, 0);
  // A tolerance stated with the quantity wins; counted units get none unless the credit says "about" (art. 30(b)).
  const pct = wanted.tolerancePct ?? (wanted.about ? p.tolerances.aboutPct : wanted.counted ? 0 : p.tolerances.quantityPct);
  const high = wanted.value * (1 + pct / 100);
  const low = wanted.value * (1 - pct / 100);
  const shown = `${formatNumber(total)} ${wanted.unit}`;
  const expected = `${formatNumber(wanted.value)} ${wanted.unit} ±${pct}%`;
  const docs = invoices.flat();
  const misread = figureDoubt(total, wanted.value, (a) => a >= low - AMOUNT_EPSILON && a <= high + AMOUNT_EPSILON, "the invoiced quantity");
  const doubts = misread ? [misread] : [];
  if (total > high + AMOUNT_EPSILON) {
    return [withDoubt(report(QUANTITY_TOLERANCE, {
      documents: docs, fields: ["quantity", "quantity_unit"], expected, found: shown,
      message: `Invoiced quantity ${shown} exceeds the credit quantity ${formatNumber(wanted.value)} ${wanted.unit} beyond the ${pct}% tolerance.`,
    }), doubts)];
  }
  if (total >= low - AMOUNT_EPSILON) return [];
  // Less than the credit quantity is a partial drawing: a discrepancy only when partial shipments are prohibited.
  const prohibited = readText(p.credit!.fields, "partial_shipments") === "not allowed";
  return [withDoubt(report(QUANTITY_TOLERANCE, {
    documents: docs, fields: ["quantity", "quantity_unit"], expected, found: shown,
    severity: prohibited ? "discrepancy" : "info",
    message: prohibited
      ? `Invoiced quantity ${shown} is short of the credit quantity beyond the ${pct}% tolerance while partial shipments are prohibited.`
      : `Invoiced quantity ${shown} is less than the credit quantity: a partial drawing, allowed under this credit.`,
  }), doubts)];
}

export const INVOICE_AMOUNT_RULES = [AMOUNT_WITHIN_CREDIT, INVOICE_CURRENCY, QUANTITY_TOLERANCE];

export function checkInvoiceAmount(p: Presentation): Finding[] {
  if (!p.credit) return [];
  const invoices = docsOfType(p, "commercial_invoice");
  const distinct = groupCopies(invoices, "invoice_number");
  return [...checkAmount(p, distinct), ...checkCurrency(p, invoices), ...checkQuantity(p, distinct)];
}
