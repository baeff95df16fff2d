import { describe, expect, it } from "vitest";
import { buildCleanPresentation, buildCredit, PRESENTATION_DATE, withFields } from "@/test/fixtures/examine/clean-presentation";
import { ExaminationError, examinePresentation, RULES } from "./index";

describe("examinePresentation", () => {
  it("returns no discrepancy and no warning on a clean presentation, and a full matrix", () => {
    const { findings, matrix } = examinePresentation({ documents: buildCleanPresentation(), presentationDate: PRESENTATION_DATE });
    expect(findings.filter((f) => f.severity !== "info")).toEqual([]);
    expect(matrix.columns.map((c) => c.role)).toEqual(["credit", ...Array(10).fill("presented")]);
    expect(matrix.rows.every((r) => r.cells.length === matrix.columns.length)).toBe(true);
    expect(matrix.rows.filter((r) => r.status === "mismatch")).toEqual([]);
    expect(matrix.rows.find((r) => r.key === "gross_weight")?.status).toBe("agree");
    // The credit's "ANY SEAPORT IN THAILAND" is a range, not a port that differs from Bangkok.
    expect(matrix.rows.find((r) => r.key === "port_of_loading")?.status).toBe("agree");
  });

  it("orders findings by severity and marks the matrix row of each discrepancy", () => {
    const docs = withFields(buildCleanPresentation(), "packing_list", { gross_weight_kg: 99000, description_of_goods: "STEEL WIRE RODS" });
    const { findings, matrix } = examinePresentation({ documents: docs, presentationDate: PRESENTATION_DATE });
    expect(findings.map((f) => f.severity)).toEqual(["discrepancy", "warning"]);
    const row = matrix.rows.find((r) => r.key === "gross_weight")!;
    expect(row.status).toBe("mismatch");
    expect(row.reason).toContain("99,000 kg");
    const column = matrix.columns.findIndex((c) => c.type === "Packing List");
    expect(row.cells[column]).toEqual({ value: 99000, state: "present", field: "gross_weight_kg" });
  });

  it("flags in the matrix a fact a document should carry and does not", () => {
    const docs = withFields(buildCleanPresentation(), "bill_of_lading", { notify_party: undefined });
    const { matrix } = examinePresentation({ documents: docs, presentationDate: PRESENTATION_DATE });
    const row = matrix.rows.find((r) => r.key === "notify_party")!;
    expect(row.status).toBe("missing");
    expect(row.cells.find((c) => c.state === "missing")?.field).toBe("notify_party");
  });

  it("shows values that differ without a rule against them as differs, not as a mismatch (art. 14(k))", () => {
    const docs = withFields(buildCleanPresentation(), "bill_of_lading", { shipper: "SIAM LOGISTICS AND FORWARDING CO., LTD." });
    const { findings, matrix } = examinePresentation({ documents: docs, presentationDate: PRESENTATION_DATE });
    expect(findings).toEqual([]);
    const row = matrix.rows.find((r) => r.key === "beneficiary")!;
    expect([row.status, row.reason]).toEqual(["differs", expect.stringContaining("no rule")]);
  });

  it("applies an MT707 amendment: a later credit message of the same number overrides the terms", () => {
    const amendment = { ...buildCredit(), id: "amendment.pdf#1" };
    amendment.result = { ...amendment.result, extracted: { lc_number: "ILC2026-00417", date_of_issue: "2026-03-20", latest_shipment_date: "2026-04-01" } };
    const { findings, matrix } = examinePresentation({ documents: [...buildCleanPresentation(), amendment], presentationDate: PRESENTATION_DATE });
    expect(findings.filter((f) => f.severity === "discrepancy").map((f) => f.rule)).toEqual(["shipment.latest_date"]);
    expect(matrix.columns.find((c) => c.id === "amendment.pdf#1")?.role).toBe("amendment");
  });

  it("examines against the credit the documents quote when the set holds two credits", () => {
    const stranger = withFields([{ ...buildCredit(), id: "other-credit" }], "letter_of_credit", { lc_number: "XYZ-1", amount: 10 });
    const { findings } = examinePresentation({ documents: [...stranger, ...buildCleanPresentation()], presentationDate: PRESENTATION_DATE });
    expect(findings.map((f) => `${f.rule}:${f.severity}`)).toEqual(["credit.present:info"]);
  });

  it("still checks consistency without a credit, saying so", () => {
    const docs = withFields(buildCleanPresentation().slice(1), "packing_list", { number_of_packages: 1999 });
    const { findings } = examinePresentation({ documents: docs, presentationDate: PRESENTATION_DATE });
    expect(findings.map((f) => f.rule)).toEqual(["consistency.packages", "credit.present"]);
  });

  it("accepts an empty set", () => {
    const { findings, matrix } = examinePresentation({ documents: [], presentationDate: PRESENTATION_DATE });
    expect(findings.map((f) => f.rule)).toEqual(["credit.present"]);
    expect(matrix.columns).toEqual([]);
  });

  it("refuses bad input with a typed error", () => {
    const docs = buildCleanPresentation();
    const bad = (input: unknown) => () => examinePresentation(input as Parameters<typeof examinePresentation>[0]);
    expect(bad({ documents: docs, presentationDate: "20/04/2026" })).toThrow(ExaminationError);
    expect(bad({ documents: [docs[0], docs[0]], presentationDate: PRESENTATION_DATE })).toThrow(/appears twice/);
    expect(bad({ documents: [{ id: "x", result: { split: { document_type: "Memo", pages: [1] }, extracted: {} } }], presentationDate: PRESENTATION_DATE })).toThrow(/not an analysis result/);
    expect(bad({ documents: docs, presentationDate: PRESENTATION_DATE, tolerances: { weightKg: -1 } })).toThrow(/zero or more/);
    expect(bad({ documents: "nope", presentationDate: PRESENTATION_DATE })).toThrow(ExaminationError);
  });

  it("softens free-text discrepancies on OCR-read documents to warnings, keeping figures as discrepancies", () => {
    let docs = withFields(buildCleanPresentation(), "commercial_invoice", { seller: "BANGKOK GRAIN TRADERS CO., LTD.", total_amount: 60000 });
    docs = docs.map((d) => (d.result.split.document_type === "Commercial Invoice" ? { ...d, textSource: "ocr" as const } : d));
    const { findings } = examinePresentation({ documents: docs, presentationDate: PRESENTATION_DATE });
    expect(findings.map((f) => `${f.rule}:${f.severity}`)).toEqual(["invoice.amount_within_credit:discrepancy", "invoice.issued_by_beneficiary:warning"]);
  });

  it("treats values of the wrong kind as absent rather than failing", () => {
    const docs = withFields(buildCleanPresentation(), "commercial_invoice", { total_amount: "49,500.00", invoice_date: "06.04.2026", container_numbers: [1, 2] });
    const { findings } = examinePresentation({ documents: docs, presentationDate: PRESENTATION_DATE });
    expect(findings.filter((f) => f.severity === "discrepancy")).toEqual([]);
  });

  it("publishes a catalogue of unique rule ids, each with a reference", () => {
    expect(new Set(RULES.map((r) => r.id)).size).toBe(RULES.length);
    expect(RULES.every((r) => /^(UCP 600|ISBP 821)/.test(r.reference))).toBe(true);
  });
});
