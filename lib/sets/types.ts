/**
 * What the set routes return and the set pages render: plain JSON shapes,
 * shared by server and browser code (no server imports here).
 */
import type { ExaminationResult, Finding, SplitResult } from "@/lib/analysis";
import type { RowTolerance } from "./tolerance-notes";

type SetFileStatus = "uploaded" | "analyzing" | "done" | "failed";

export interface SetSummary {
  id: string;
  name: string;
  /** YYYY-MM-DD or null (the examination then uses today). */
  presentationDate: string | null;
  createdAt: string;
  fileCount: number;
  pageCount: number;
  analyzingCount: number;
  failedCount: number;
}

export interface CorrectionView {
  action: "retype" | "split" | "merge" | "reset";
  splitIndex: number | null;
  page: number | null;
  documentType: string | null;
  createdAt: string;
}

export interface SetFileView {
  id: string;
  fileName: string;
  sizeBytes: number;
  format: string;
  status: SetFileStatus;
  errorDetail: string | null;
  pageCount: number | null;
  createdAt: string;
  /** Page sizes in PDF points (or pixels for images), index = page number − 1. */
  pageSizes: { width: number; height: number }[];
  /** The splits in force: the engine's, or the newest correction's. */
  splits: SplitResult[];
  corrections: CorrectionView[];
  /** Values corrected by hand that are in force (the splits above already carry them). */
  fieldCorrections: FieldCorrectionView[];
  /** Documents of this file marked reviewed, by split. */
  reviews: ReviewView[];
  /** While the file is read: pages read of its pages, and the time left at that pace (null until a page is read). */
  progress: FileProgressView | null;
}

export interface FileProgressView {
  pagesDone: number;
  pagesTotal: number;
  /**
   * Whole minutes left (0: under half a minute), the page's own granularity:
   * a finer count would change on every poll and keep the page polling at its fastest.
   */
  minutesLeft: number | null;
}

/** A value a checker corrected or added: `splits[splitIndex].extracted[field]` holds `value`. */
export interface FieldCorrectionView {
  splitIndex: number;
  field: string;
  value: unknown;
  /** What the engine had read; null when the value was added by hand. */
  original: unknown;
  correctedBy: string | null;
  correctedAt: string;
}

export interface ReviewView {
  splitIndex: number;
  reviewedBy: string | null;
  reviewedAt: string;
}

export type FindingDecisionKind = "accept" | "waive" | "reopen";

export interface DecisionView {
  findingKey: string;
  decision: FindingDecisionKind;
  note: string | null;
  decidedBy: string | null;
  decidedAt: string;
}

/** A finding of the set's examination with its stable key and the decision in force (none while open). */
export interface SetFinding extends Finding {
  key: string;
  decision: DecisionView | null;
}

/** pending: a finding awaits a decision (or the set is not examined yet); discrepant: an accepted finding stands; compliant: none stands. */
export type PresentationStatus = "pending" | "compliant" | "discrepant";

export interface SetExamination extends Omit<ExaminationResult, "findings"> {
  findings: SetFinding[];
  /** The date the set was examined at: the set's presentation date, or today. */
  presentationDate: string;
  /** The tolerance of each figure row, by matrix row key. */
  tolerances: Record<string, RowTolerance>;
}

export interface SetView {
  set: { id: string; name: string; presentationDate: string | null; createdAt: string };
  files: SetFileView[];
  /** True when no file is waiting for or in analysis. */
  settled: boolean;
  /** Present once the set is settled and at least one file was analysed. */
  examination: SetExamination | null;
  /** Why the set could not be examined, in words for the user. */
  examinationError: string | null;
  /** Follows from the open findings and the decisions in force. */
  status: PresentationStatus;
  /** Every decision taken on the set's findings, oldest first. */
  decisions: DecisionView[];
  /** The set's audit trail: corrections, reviews and decisions, newest first. */
  history: HistoryEntry[];
}

export interface HistoryEntry {
  action: string;
  actor: string;
  at: string;
  detail: Record<string, unknown>;
}

/** Examined document ids are `<file id>#<split number>` (1-based), so findings lead back to their split. */
export function documentIdOf(fileId: string, splitIndex: number): string {
  return `${fileId}#${splitIndex + 1}`;
}

export function parseDocumentId(id: string): { fileId: string; splitIndex: number } | undefined {
  const match = /^(.+)#(\d+)$/.exec(id);
  if (!match) return undefined;
  return { fileId: match[1]!, splitIndex: Number(match[2]) - 1 };
}
