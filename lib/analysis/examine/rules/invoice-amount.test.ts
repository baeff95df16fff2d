import { describe, expect, it } from "vitest";
import { buildCleanPresentation, presentationOf, withFields } from "@/test/fixtures/examine/clean-presentation";
import { checkInvoiceAmount } from "./invoice-amount";

const rules = (docs = buildCleanPresentation()) => checkInvoiceAmount(presentationOf(docs)).map((f) => `${f.rule}:${f.severity}`);

describe("invoice amount, currency and quantity against the credit", () => {
  it("finds nothing on a clean presentation", () => {
    expect(rules()).toEqual([]);
  });

  it("flags an invoice above the credit amount plus the 39A tolerance", () => {
    const docs = withFields(buildCleanPresentation(), "commercial_invoice", { total_amount: 52600 });
    const [finding] = checkInvoiceAmount(presentationOf(docs));
    expect(finding?.rule).toBe("invoice.amount_within_credit");
    expect(finding?.expected).toContain("52,500");
    expect(finding?.found).toBe("USD 52,600");
  });

  it("accepts an invoice within the 39A tolerance", () => {
    expect(rules(withFields(buildCleanPresentation(), "commercial_invoice", { total_amount: 52500 }))).toEqual([]);
  });

  it("applies 10% when the credit says about its amount and has no 39A", () => {
    let docs = withFields(buildCleanPresentation(), "letter_of_credit", {
      tolerance_plus_pct: undefined,
      additional_conditions: ["CREDIT AMOUNT ABOUT USD 50,000.00"],
    });
    docs = withFields(docs, "commercial_invoice", { total_amount: 54000, quantity: 102 });
    expect(rules(docs)).toEqual([]);
    expect(rules(withFields(docs, "commercial_invoice", { total_amount: 55100 }))).toEqual(["invoice.amount_within_credit:discrepancy"]);
  });

  it("uses no tolerance when the credit has neither 39A nor about", () => {
    const docs = withFields(buildCleanPresentation(), "letter_of_credit", { tolerance_plus_pct: undefined });
    expect(rules(withFields(docs, "commercial_invoice", { total_amount: 50000.01 }))).toEqual(["invoice.amount_within_credit:discrepancy"]);
  });

  it("adds up distinct invoices but counts an original and its copy once", () => {
    const clean = buildCleanPresentation();
    const invoice = clean[1]!;
    const copy = { ...invoice, id: "copy" };
    expect(rules([...clean, copy])).toEqual([]);
    const second = withFields([{ ...invoice, id: "second" }], "commercial_invoice", { invoice_number: "SGR-INV-2026-119", total_amount: 4000 });
    expect(rules([...clean, ...second])).toContain("invoice.amount_within_credit:discrepancy");
  });

  it("flags an invoice in another currency", () => {
    const findings = checkInvoiceAmount(presentationOf(withFields(buildCleanPresentation(), "commercial_invoice", { currency: "EUR" })));
    expect(findings.map((f) => [f.rule, f.expected, f.found])).toEqual([["invoice.currency", "USD", "EUR"]]);
  });

  it("flags a quantity beyond 5% for bulk goods and accepts one within it", () => {
    const over = withFields(buildCleanPresentation(), "commercial_invoice", { quantity: 105.5 });
    expect(rules(over)).toEqual(["invoice.quantity_within_tolerance:discrepancy"]);
    expect(rules(withFields(buildCleanPresentation(), "commercial_invoice", { quantity: 104.9 }))).toEqual([]);
  });

  it("compares quantities across units (MT on the credit, KGS on the invoice)", () => {
    const docs = withFields(buildCleanPresentation(), "commercial_invoice", { quantity: 110000, quantity_unit: "KGS" });
    expect(rules(docs)).toEqual(["invoice.quantity_within_tolerance:discrepancy"]);
  });

  it("allows no quantity tolerance when the credit counts units (art. 30(b))", () => {
    let docs = withFields(buildCleanPresentation(), "letter_of_credit", { description_of_goods: "2000 CARTONS OF CANNED TUNA" });
    docs = withFields(docs, "commercial_invoice", { quantity: 2010, quantity_unit: "CTNS" });
    expect(rules(docs)).toEqual(["invoice.quantity_within_tolerance:discrepancy"]);
  });

  it("treats a short quantity as a discrepancy only when partial shipments are prohibited", () => {
    const short = withFields(buildCleanPresentation(), "commercial_invoice", { quantity: 90 });
    expect(rules(short)).toEqual(["invoice.quantity_within_tolerance:discrepancy"]);
    const allowed = withFields(short, "letter_of_credit", { partial_shipments: "allowed" });
    expect(rules(allowed)).toEqual(["invoice.quantity_within_tolerance:info"]);
  });

  it("applies a tolerance the credit states with its quantity", () => {
    const docs = withFields(buildCleanPresentation(), "letter_of_credit", { description_of_goods: "MILLING WHEAT QUANTITY: 100.000 MT +/- 10 PCT AS PER CONTRACT NO. PLG/SC/24/442" });
    expect(rules(withFields(docs, "commercial_invoice", { quantity: 108 }))).toEqual([]);
    expect(rules(withFields(docs, "commercial_invoice", { quantity: 111 }))).toEqual(["invoice.quantity_within_tolerance:discrepancy"]);
  });

  it("stays silent when data is missing or units cannot be compared", () => {
    expect(rules(withFields(buildCleanPresentation(), "commercial_invoice", { total_amount: undefined, currency: undefined, quantity: undefined }))).toEqual([]);
    expect(rules(withFields(buildCleanPresentation(), "commercial_invoice", { quantity_unit: "LOTS" }))).toEqual([]);
    expect(rules(buildCleanPresentation().slice(1))).toEqual([]);
  });

  it("does not read a product code as a quantity", () => {
    let docs = withFields(buildCleanPresentation(), "letter_of_credit", { description_of_goods: "KANEMITE SC-1500 L (PACKING -500ML) PESTICIDES" });
    docs = withFields(docs, "commercial_invoice", { quantity: 3000, quantity_unit: "L" });
    expect(rules(docs)).toEqual([]);
  });
});
