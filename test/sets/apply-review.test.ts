import { describe, expect, it } from "vitest";
import type { Finding } from "@/lib/analysis";
import type { DocumentReviewRow, FieldCorrectionRow } from "@/db/schema";
import { applyFileReview, decideFindings, findingKeyOf, presentationStatusOf } from "@/lib/sets/apply-review";
import type { DecisionView, SetFileView } from "@/lib/sets/types";

const at = new Date("2030-01-02T03:04:05Z");

function file(): SetFileView {
  const split = (pages: number[], gross: number) => ({
    split: { document_type: "Certificate of Weight" as const, pages },
    extracted: { gross_weight_kg: gross },
    evidence: { gross_weight_kg: { page: pages[0]!, bbox: [0.1, 0.2, 0.3, 0.4] as [number, number, number, number], text: `${gross} KG`, confidence: 0.5 } },
  });
  return {
    id: "sfl_1", fileName: "a.pdf", sizeBytes: 1, format: "pdf", status: "done", errorDetail: null, pageCount: 3, createdAt: at.toISOString(),
    pageSizes: [], splits: [split([1], 100), split([2, 3], 200)], corrections: [], fieldCorrections: [], reviews: [], progress: null,
  };
}

function correction(pagesKey: string, value: unknown, minutes: number): FieldCorrectionRow & { createdByEmail: string } {
  return { id: `fcr_${minutes}`, setFileId: "sfl_1", organizationId: "org", pagesKey, field: "gross_weight_kg", value, original: 200, createdBy: "usr", createdAt: new Date(at.getTime() + minutes * 60_000), createdByEmail: "a@example.test" };
}

const finding = (rule: string, severity: Finding["severity"]): Finding => ({ rule, reference: "UCP 600 art. 14(d)", severity, documents: [{ id: "sfl_1#2", type: "Certificate of Weight", pages: [2, 3] }], fields: ["gross_weight_kg"], message: "m" });
const decision = (findingKey: string, kind: DecisionView["decision"]): DecisionView => ({ findingKey, decision: kind, note: null, decidedBy: null, decidedAt: at.toISOString() });

describe("applyFileReview", () => {
  it("lays the newest correction of each document's field over the engine's value, with full confidence at the same place", () => {
    const out = applyFileReview(file(), [correction("2,3", 150, 1), correction("2,3", 180, 2)], []);
    expect(out.splits[1]!.extracted.gross_weight_kg).toBe(180);
    expect(out.splits[1]!.evidence!.gross_weight_kg).toEqual({ page: 2, bbox: [0.1, 0.2, 0.3, 0.4], text: "200 KG", confidence: 1 });
    expect(out.splits[0]!.extracted.gross_weight_kg).toBe(100);
    expect(out.fieldCorrections).toEqual([{ splitIndex: 1, field: "gross_weight_kg", value: 180, original: 200, correctedBy: "a@example.test", correctedAt: "2030-01-02T03:06:05.000Z" }]);
  });

  it("drops a correction put back (value null) and one whose document's pages no longer exist", () => {
    expect(applyFileReview(file(), [correction("2,3", 150, 1), correction("2,3", null, 2)], []).fieldCorrections).toEqual([]);
    const moved = applyFileReview(file(), [correction("2", 150, 1)], []);
    expect(moved.fieldCorrections).toEqual([]);
    expect(moved.splits[1]!.extracted.gross_weight_kg).toBe(200);
  });

  it("keeps the newest review mark per document", () => {
    const mark = (reviewed: number, minutes: number): DocumentReviewRow & { createdByEmail: string } => ({ id: `rev_${minutes}`, setFileId: "sfl_1", organizationId: "org", pagesKey: "1", reviewed, createdBy: "usr", createdAt: new Date(at.getTime() + minutes * 60_000), createdByEmail: "b@example.test" });
    expect(applyFileReview(file(), [], [mark(1, 1)]).reviews).toEqual([{ splitIndex: 0, reviewedBy: "b@example.test", reviewedAt: "2030-01-02T03:05:05.000Z" }]);
    expect(applyFileReview(file(), [], [mark(1, 1), mark(0, 2)]).reviews).toEqual([]);
  });
});

describe("decisions and the presentation status", () => {
  const discrepancy = finding("consistency.gross_weight", "discrepancy");
  const warning = finding("doubt.gross_weight", "warning");
  const note = finding("info.rule", "info");
  const key = findingKeyOf(discrepancy);

  it("keys a finding by rule, documents, fields and what was expected, not by its wording", () => {
    expect(key).toBe("consistency.gross_weight|sfl_1#2|gross_weight_kg|");
    expect(findingKeyOf({ ...discrepancy, message: "other words" })).toBe(key);
    // One rule, several findings on the same documents: each missing document is its own finding.
    const missing = (expected: string): Finding => ({ ...finding("documents.required_present", "discrepancy"), documents: [], fields: [], expected });
    expect(findingKeyOf(missing("PACKING LIST IN 3 ORIGINALS"))).not.toBe(findingKeyOf(missing("CERTIFICATE OF ORIGIN")));
  });

  it("is pending while a discrepancy or warning is open, discrepant when one accepted stands, compliant when all are waived", () => {
    const status = (decisions: DecisionView[]) => presentationStatusOf(decideFindings([discrepancy, warning, note], decisions));
    expect(presentationStatusOf(null)).toBe("pending");
    expect(status([])).toBe("pending");
    expect(status([decision(key, "waive")])).toBe("pending");
    expect(status([decision(key, "waive"), decision(findingKeyOf(warning), "waive")])).toBe("compliant");
    expect(status([decision(key, "accept"), decision(findingKeyOf(warning), "waive")])).toBe("discrepant");
    expect(status([decision(key, "accept"), decision(key, "reopen"), decision(findingKeyOf(warning), "waive")])).toBe("pending");
    expect(presentationStatusOf(decideFindings([note], []))).toBe("compliant");
  });
});
