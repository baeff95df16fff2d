import { describe, expect, it } from "vitest";
import { buildCleanPresentation, presentationOf, withFields } from "@/test/fixtures/examine/clean-presentation";
import { checkDocumentsRequired } from "./documents-required";

const rules = (docs = buildCleanPresentation()) => checkDocumentsRequired(presentationOf(docs)).map((f) => `${f.rule}:${f.severity}`);
const without = (label: string) => buildCleanPresentation().filter((d) => d.result.split.document_type !== label);

describe("documents required by :46A:", () => {
  it("finds nothing on a clean presentation", () => {
    expect(rules()).toEqual([]);
  });

  it("flags a required document that is not presented", () => {
    const findings = checkDocumentsRequired(presentationOf(without("Certificate of Weight")));
    expect(findings.map((f) => [f.rule, f.severity, f.found])).toEqual([["documents.required_present", "discrepancy", "not presented"]]);
    expect(findings[0]?.message).toContain("Certificate of Weight");
  });

  it("matches other documents by their text, and only warns when none is there", () => {
    const docs = buildCleanPresentation();
    const noInsurance = docs.filter((d) => !d.text?.startsWith("MARINE INSURANCE"));
    expect(rules(noInsurance)).toEqual(["documents.required_present:warning"]);
    const untexted = docs.map((d) => (d.result.split.document_type === "Other" ? { ...d, text: undefined } : d));
    expect(rules(untexted)).toEqual(["documents.required_present:info", "documents.required_present:info"]);
  });

  it("flags a B/L showing another number of originals than the full set asked for", () => {
    expect(rules(withFields(buildCleanPresentation(), "bill_of_lading", { number_of_originals: 2 }))).toEqual(["bl.full_set:discrepancy"]);
  });

  it("flags a B/L consigned otherwise than :46A: requires", () => {
    expect(rules(withFields(buildCleanPresentation(), "bill_of_lading", { consignee: "GULF STAR FOODSTUFF TRADING L.L.C." }))).toEqual([
      "bl.consignee_as_credit:discrepancy",
    ]);
  });

  it("flags a notify party other than the applicant when :46A: says NOTIFY APPLICANT", () => {
    expect(rules(withFields(buildCleanPresentation(), "bill_of_lading", { notify_party: "SAME AS CONSIGNEE" }))).toEqual([
      "bl.notify_party_as_credit:discrepancy",
    ]);
  });

  it("stays silent when the B/L does not show the data or there is no :46A:", () => {
    expect(rules(withFields(buildCleanPresentation(), "bill_of_lading", { number_of_originals: undefined, consignee: undefined }))).toEqual([]);
    expect(rules(withFields(without("Packing List"), "letter_of_credit", { documents_required: undefined }))).toEqual([]);
  });
});
