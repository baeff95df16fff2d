import { describe, expect, it } from "vitest";
import { buildCleanPresentation, presentationOf, withFields } from "@/test/fixtures/examine/clean-presentation";
import { checkCreditConditions, quotesNumber } from "./credit-conditions";

const rules = (docs = buildCleanPresentation()) => checkCreditConditions(presentationOf(docs)).map((f) => `${f.rule}:${f.severity}`);
const withConditions = (...conditions: string[]) =>
  withFields(buildCleanPresentation(), "letter_of_credit", { additional_conditions: conditions });

describe(":47A: conditions", () => {
  it("finds nothing on a clean presentation", () => {
    expect(rules()).toEqual([]);
  });

  it("flags a document that does not quote the credit number when :47A: asks for it on all documents", () => {
    expect(rules(withFields(buildCleanPresentation(), "commercial_invoice", { lc_number: undefined }).map((d) =>
      d.result.split.document_type === "Commercial Invoice" ? { ...d, text: "COMMERCIAL INVOICE" } : d,
    ))).toEqual(["conditions.credit_number_on_documents:discrepancy"]);
    const docs = buildCleanPresentation().map((d) => (d.result.split.document_type === "Packing List" ? { ...d, text: "PACKING LIST NO. 1" } : d));
    expect(rules(docs)).toEqual(["conditions.credit_number_on_documents:discrepancy"]);
  });

  it("finds the number in OCR text despite misread characters, and only warns on a miss in OCR text", () => {
    expect(quotesNumber("L/C NUMBER: ILCAEOO221006098", "ILCAE00221000098")).toBe(true);
    expect(quotesNumber("L/C NUMBER: ILCAE00399912345", "ILCAE00221000098")).toBe(false);
    const docs = buildCleanPresentation().map((d) =>
      d.result.split.document_type === "Packing List" ? { ...d, text: "PACKING LIST NO. 1", textSource: "ocr" as const } : d,
    );
    expect(rules(docs)).toEqual(["conditions.credit_number_on_documents:warning"]);
  });

  it("reports info when a document without an lc_number key has no text to search", () => {
    const docs = buildCleanPresentation().map((d) => (d.result.split.document_type === "Packing List" ? { ...d, text: undefined } : d));
    expect(rules(docs)).toEqual(["conditions.credit_number_on_documents:info"]);
  });

  it("asks nothing when :47A: does not require the number", () => {
    const docs = withConditions("ALL DOCUMENTS MUST BE ISSUED IN ENGLISH.").map((d) => ({ ...d, text: undefined }));
    expect(rules(docs)).toEqual([]);
  });

  it("flags documents and shipment dated before the credit when :47A: refuses them", () => {
    let docs = withConditions("DOCUMENTS IN THE FOLLOWING NATURE ARE NOT ACCEPTABLE: A) DOCUMENTS ISSUED PRIOR TO THE DATE OF THIS L/C. C) DOCUMENTS SHOWING SHIPMENT DATE PRIOR TO L/C ISSUANCE DATE.");
    expect(rules(docs)).toEqual([]);
    docs = withFields(docs, "certificate_of_origin", { date_of_issue: "2026-02-27" });
    expect(rules(docs)).toEqual(["conditions.dated_before_credit:discrepancy"]);
    expect(rules(withFields(docs, "bill_of_lading", { shipped_on_board_date: "2026-03-01" }))).toEqual([
      "conditions.dated_before_credit:discrepancy",
      "conditions.dated_before_credit:discrepancy",
    ]);
  });

  it("accepts documents dated before the credit when :47A: says nothing (art. 14(i))", () => {
    expect(rules(withFields(buildCleanPresentation(), "certificate_of_origin", { date_of_issue: "2026-02-27" }))).toEqual([]);
  });

  it("flags a B/L shipper other than the beneficiary only when :47A: refuses it (art. 14(k))", () => {
    const forwarder = { shipper: "BANGKOK FREIGHT FORWARDING CO., LTD. AS AGENT" };
    expect(rules(withFields(buildCleanPresentation(), "bill_of_lading", forwarder))).toEqual([]);
    const docs = withConditions("BILL OF LADING SHOWING CONSIGNOR OTHER THAN THE BENEFICIARY OF THIS L/C IS NOT ACCEPTABLE.");
    expect(rules(withFields(docs, "bill_of_lading", forwarder))).toEqual(["conditions.shipper_is_beneficiary:discrepancy"]);
  });

  it("flags a charter party B/L when :47A: refuses it", () => {
    const docs = withConditions("CHARTER PARTY/SHORT FORM/BLANK BACK BILLS OF LADING ARE NOT ACCEPTABLE.");
    expect(rules(docs)).toEqual([]);
    const cp = docs.map((d) => (d.result.split.document_type === "Bill of Lading" ? { ...d, text: `${d.text}\nTO BE USED WITH CHARTER PARTIES` } : d));
    expect(rules(cp)).toEqual(["conditions.no_charter_party:discrepancy"]);
  });
});
