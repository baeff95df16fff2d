/**
 * A checker's work laid over the engine's reading: corrected values replace
 * the extracted ones (so the comparison and the findings are computed from
 * them), review marks are attached, and each finding gets its key and the
 * decision in force. Pure functions: the set view and the exports share them.
 */
import type { Evidence, SplitResult, Finding } from "@/lib/analysis";
import type { DocumentReviewRow, FieldCorrectionRow, FindingDecisionRow } from "@/db/schema";
import type { DecisionView, FieldCorrectionView, PresentationStatus, ReviewView, SetFileView, SetFinding } from "./types";

type Authored<T> = T & { createdByEmail: string | null };

/** A document of a file is named by its pages: "3,4". */
export function pagesKeyOf(pages: number[]): string {
  return pages.join(",");
}

/** The newest row per key wins; rows come oldest first. */
function newestBy<T>(rows: T[], key: (row: T) => string): Map<string, T> {
  const latest = new Map<string, T>();
  for (const row of rows) latest.set(key(row), row);
  return latest;
}

/**
 * Evidence of a corrected value: the place and text the engine read (so the
 * page still shows where the value sits), with full confidence: a person
 * read it, so the examination never calls it a doubtful read.
 */
function correctedEvidence(previous: Evidence | undefined): Evidence | undefined {
  return previous && { ...previous, confidence: 1 };
}

/** The file with the corrections in force applied to its splits, and its review marks. */
export function applyFileReview(
  file: SetFileView,
  corrections: Authored<FieldCorrectionRow>[],
  reviews: Authored<DocumentReviewRow>[],
): SetFileView {
  const inForce = newestBy(corrections, (c) => `${c.pagesKey}\u0000${c.field}`);
  const marks = newestBy(reviews, (r) => r.pagesKey);
  const fieldCorrections: FieldCorrectionView[] = [];
  const reviewViews: ReviewView[] = [];
  const splits = file.splits.map((split, splitIndex): SplitResult => {
    const key = pagesKeyOf(split.split.pages);
    const mark = marks.get(key);
    if (mark?.reviewed) reviewViews.push({ splitIndex, reviewedBy: mark.createdByEmail, reviewedAt: mark.createdAt.toISOString() });
    const mine = [...inForce.values()].filter((c) => c.pagesKey === key && c.value !== null);
    if (mine.length === 0) return split;
    const extracted = { ...split.extracted };
    const evidence = { ...split.evidence };
    for (const c of mine) {
      extracted[c.field] = c.value;
      const moved = correctedEvidence(split.evidence?.[c.field]);
      if (moved) evidence[c.field] = moved;
      else delete evidence[c.field];
      fieldCorrections.push({ splitIndex, field: c.field, value: c.value, original: c.original ?? null, correctedBy: c.createdByEmail, correctedAt: c.createdAt.toISOString() });
    }
    return { ...split, extracted, ...(split.evidence ? { evidence } : {}) };
  });
  return { ...file, splits, fieldCorrections, reviews: reviewViews };
}

/**
 * A finding's key: its rule, the documents and fields it concerns, and what
 * was expected. One rule raises several findings on the same documents (each
 * required document missing), told apart by what the credit asked for; a
 * finding whose expected value changes (another value corrected) is another
 * finding and needs its own decision. The message is left out: its wording
 * may change while the finding stays the same.
 */
export function findingKeyOf(finding: Finding): string {
  return [finding.rule, finding.documents.map((d) => d.id).join("+"), finding.fields.join("+"), finding.expected ?? ""].join("|");
}

export function toDecisionView(row: Authored<FindingDecisionRow>): DecisionView {
  return { findingKey: row.findingKey, decision: row.decision, note: row.note, decidedBy: row.createdByEmail, decidedAt: row.createdAt.toISOString() };
}

/** Each finding with its key and the decision in force ("reopen" leaves it open). */
export function decideFindings(findings: Finding[], decisions: DecisionView[]): SetFinding[] {
  const latest = newestBy(decisions, (d) => d.findingKey);
  return findings.map((finding) => {
    const key = findingKeyOf(finding);
    const decision = latest.get(key);
    return { ...finding, key, decision: decision && decision.decision !== "reopen" ? decision : null };
  });
}

/**
 * Notes (severity info) need no decision. Pending while a discrepancy or a
 * warning has none; discrepant when an accepted one stands; compliant when
 * every one was waived (or there were none).
 */
export function presentationStatusOf(findings: SetFinding[] | null): PresentationStatus {
  if (!findings) return "pending";
  const decisive = findings.filter((f) => f.severity !== "info");
  if (decisive.some((f) => !f.decision)) return "pending";
  return decisive.some((f) => f.decision?.decision === "accept") ? "discrepant" : "compliant";
}
