import { describe, expect, it } from "vitest";
import { buildCleanPresentation, presentationOf, withFields } from "@/test/fixtures/examine/clean-presentation";
import { checkDates } from "./dates";

const rules = (docs = buildCleanPresentation(), date?: string) => checkDates(presentationOf(docs, date)).map((f) => `${f.rule}:${f.severity}`);

describe("presentation dates", () => {
  it("finds nothing on a clean presentation", () => {
    expect(rules()).toEqual([]);
  });

  it("flags presentation later than the :48: period after shipment", () => {
    expect(rules(buildCleanPresentation(), "2026-04-27")).toEqual(["presentation.period:discrepancy"]);
    expect(rules(buildCleanPresentation(), "2026-04-26")).toEqual([]);
  });

  it("uses 21 days when the credit sets no period", () => {
    const docs = withFields(buildCleanPresentation(), "letter_of_credit", { presentation_period_days: undefined, expiry_date: "2026-06-30" });
    expect(rules(docs, "2026-04-26")).toEqual([]);
    expect(rules(docs, "2026-04-27")).toEqual(["presentation.period:discrepancy"]);
  });

  it("flags presentation after expiry", () => {
    const docs = withFields(buildCleanPresentation(), "letter_of_credit", { expiry_date: "2026-04-18" });
    const findings = checkDates(presentationOf(docs));
    expect(findings.map((f) => [f.rule, f.expected, f.found])).toEqual([["presentation.expiry", "on or before 2026-04-18", "2026-04-20"]]);
  });

  it("flags a document dated after the presentation", () => {
    const findings = checkDates(presentationOf(withFields(buildCleanPresentation(), "packing_list", { date_of_issue: "2026-04-22" })));
    expect(findings.map((f) => [f.rule, f.documents[0]?.type, f.fields])).toEqual([["documents.dated_after_presentation", "Packing List", ["date_of_issue"]]]);
  });

  it("flags fumigation after shipment as a discrepancy when the credit asks for it before shipment", () => {
    expect(rules(withFields(buildCleanPresentation(), "fumigation_certificate", { fumigation_date: "2026-04-07" }))).toEqual([
      "documents.pre_shipment_event:discrepancy",
    ]);
  });

  it("allows certificates issued after shipment and weighs unstated events lightly (ISBP 821 A12)", () => {
    expect(rules(withFields(buildCleanPresentation(), "certificate_of_quality", { date_of_issue: "2026-04-10" }))).toEqual([]);
    expect(rules(withFields(buildCleanPresentation(), "certificate_of_quality", { date_of_inspection: "2026-04-08" }))).toEqual([
      "documents.pre_shipment_event:info",
    ]);
    expect(rules(withFields(buildCleanPresentation(), "phytosanitary_certificate", { treatment_date: "2026-04-08" }))).toEqual([
      "documents.pre_shipment_event:warning",
    ]);
  });

  it("stays silent without a shipment date or a credit", () => {
    const noDates = withFields(buildCleanPresentation(), "bill_of_lading", { shipped_on_board_date: undefined, date_of_issue: undefined });
    expect(rules(noDates, "2026-05-10")).toEqual([]);
    expect(rules(buildCleanPresentation().slice(1), "2026-04-20")).toEqual([]);
  });
});
