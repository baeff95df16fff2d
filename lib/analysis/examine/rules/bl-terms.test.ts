import { describe, expect, it } from "vitest";
import { buildCleanPresentation, presentationOf, withFields } from "@/test/fixtures/examine/clean-presentation";
import type { ExaminedDocument } from "../types";
import { checkBlTerms, findDefectClause } from "./bl-terms";

const rules = (docs = buildCleanPresentation()) => checkBlTerms(presentationOf(docs)).map((f) => `${f.rule}:${f.severity}`);
const blText = (docs: ExaminedDocument[], line: string) =>
  docs.map((d) => (d.result.split.document_type === "Bill of Lading" ? { ...d, text: `${d.text}\n${line}` } : d));

describe("B/L freight terms and clean B/L", () => {
  it("finds nothing on a clean presentation", () => {
    expect(rules()).toEqual([]);
  });

  it("flags freight collect when the credit demands prepaid", () => {
    expect(rules(withFields(buildCleanPresentation(), "bill_of_lading", { freight_terms: "collect" }))).toEqual(["bl.freight_terms:discrepancy"]);
  });

  it("flags freight collect under a C- or D-term even when :46A: is silent", () => {
    let docs = withFields(buildCleanPresentation(), "letter_of_credit", { documents_required: ["BILLS OF LADING"] });
    docs = withFields(docs, "bill_of_lading", { freight_terms: "collect" });
    expect(rules(docs)).toEqual(["bl.freight_terms:discrepancy"]);
  });

  it("warns on freight prepaid under FOB, and accepts collect under FOB", () => {
    let docs = withFields(buildCleanPresentation(), "letter_of_credit", { documents_required: ["BILLS OF LADING"], incoterms: "FOB BANGKOK" });
    docs = withFields(docs, "commercial_invoice", { incoterms: "FOB BANGKOK" });
    expect(rules(docs)).toEqual(["bl.freight_terms:warning"]);
    expect(rules(withFields(docs, "bill_of_lading", { freight_terms: "collect" }))).toEqual([]);
  });

  it("flags a clause declaring defective goods or packing", () => {
    expect(rules(blText(buildCleanPresentation(), "12 BAGS TORN AND RESEWN, CONTENTS STAINED"))).toEqual(["bl.clean:discrepancy"]);
    expect(findDefectClause("CARTONS WET AND STAINED")).toBe("CARTONS WET AND STAINED");
    expect(findDefectClause("SHIPPED IN DAMAGED CONDITION")).toBeDefined();
  });

  it("does not read possibilities, legal terms or the word clean as defects", () => {
    expect(findDefectClause("PACKAGING MAY NOT BE SUFFICIENT FOR THE SEA JOURNEY")).toBeUndefined();
    expect(findDefectClause("THE CARRIER SHALL NOT BE LIABLE FOR GOODS DAMAGED BY INSUFFICIENT PACKING")).toBeUndefined();
    expect(findDefectClause("CLEAN ON BOARD\nSHIPPER'S LOAD, STOW AND COUNT\nSAID TO CONTAIN 2000 BAGS")).toBeUndefined();
  });

  it("stays silent without text or freight terms", () => {
    const docs = withFields(buildCleanPresentation(), "bill_of_lading", { freight_terms: undefined }).map((d) => ({ ...d, text: undefined }));
    expect(rules(docs)).toEqual([]);
  });
});
