import { describe, expect, it } from "vitest";
import { buildCleanPresentation, presentationOf, withFields } from "@/test/fixtures/examine/clean-presentation";
import { checkInvoiceParties } from "./invoice-parties";

const rules = (docs = buildCleanPresentation()) => checkInvoiceParties(presentationOf(docs)).map((f) => `${f.rule}:${f.severity}`);

describe("invoice parties and goods descriptions", () => {
  it("finds nothing on a clean presentation (legal-form and punctuation variants agree)", () => {
    expect(rules()).toEqual([]);
  });

  it("flags an invoice issued by someone other than the beneficiary", () => {
    const findings = checkInvoiceParties(presentationOf(withFields(buildCleanPresentation(), "commercial_invoice", { seller: "BANGKOK GRAIN TRADERS CO., LTD." })));
    expect(findings.map((f) => f.rule)).toEqual(["invoice.issued_by_beneficiary"]);
    expect(findings[0]?.found).toBe("BANGKOK GRAIN TRADERS CO., LTD.");
  });

  it("flags an invoice made out to someone other than the applicant", () => {
    expect(rules(withFields(buildCleanPresentation(), "commercial_invoice", { buyer: "DESERT ROSE GENERAL TRADING LLC" }))).toEqual([
      "invoice.made_out_to_applicant:discrepancy",
    ]);
  });

  it("accepts a name cell that runs on into the address and OCR noise in the legal form", () => {
    const docs = withFields(buildCleanPresentation(), "commercial_invoice", {
      seller: "SIAM GOLDEN RICE CO., LT). 99 RAMA IV ROAD",
      buyer: "M/S GULF STAR FOODSTUFF TRADING LLC P.O. BOX 55120",
    });
    expect(rules(docs)).toEqual([]);
  });

  it("reports info, not a discrepancy, when the invoice's parties could not be read", () => {
    expect(rules(withFields(buildCleanPresentation(), "commercial_invoice", { seller: undefined }))).toEqual(["invoice.issued_by_beneficiary:info"]);
  });

  it("flags an invoice describing other goods", () => {
    expect(rules(withFields(buildCleanPresentation(), "commercial_invoice", { description_of_goods: "FROZEN CHICKEN LEG QUARTERS" }))).toEqual([
      "invoice.goods_description:discrepancy",
    ]);
  });

  it("warns when the invoice carries only part of the credit's goods wording", () => {
    expect(rules(withFields(buildCleanPresentation(), "commercial_invoice", { description_of_goods: "THAI WHITE RICE LONG GRAIN" }))).toEqual([
      "invoice.goods_description:warning",
    ]);
  });

  it("does not count references and tolerance wording in :45A: as goods words", () => {
    const docs = withFields(buildCleanPresentation(), "letter_of_credit", {
      description_of_goods: "GREEN ARABICA COFFEE QUANTITY: 95.979 MT +/- 5 PCT AS PER CONTRACT NO. OBS/SC/25/463 FOB ODESA INCOTERMS 2020",
    });
    const found = rules(withFields(docs, "commercial_invoice", { description_of_goods: "GREEN ARABICA COFFEE" }));
    expect(found.filter((r) => r.startsWith("invoice."))).toEqual([]);
  });

  it("reads line items when the invoice has no description field", () => {
    const docs = withFields(buildCleanPresentation(), "commercial_invoice", {
      description_of_goods: undefined,
      line_items: [{ description: "THAI WHITE RICE LONG GRAIN 5 PCT BROKEN CROP 2025 PACKED IN 50 KG PP BAGS", quantity: 100, unit: "MT", unit_price: 495, amount: 49500 }],
    });
    expect(rules(docs)).toEqual([]);
  });

  it("lets other documents use general terms but warns on a conflicting description", () => {
    expect(rules(withFields(buildCleanPresentation(), "bill_of_lading", { description_of_goods: "RICE" }))).toEqual([]);
    expect(rules(withFields(buildCleanPresentation(), "bill_of_lading", { description_of_goods: "4 X 40' FCL SAID TO CONTAIN 2000 BAGS" }))).toEqual([]);
    expect(rules(withFields(buildCleanPresentation(), "packing_list", { description_of_goods: "STEEL WIRE RODS" }))).toEqual([
      "documents.goods_description_not_conflicting:warning",
    ]);
  });

  it("does nothing without a credit", () => {
    expect(rules(buildCleanPresentation().slice(1))).toEqual([]);
  });
});
