/**
 * What the set routes return and the set pages render: plain JSON shapes,
 * shared by server and browser code (no server imports here).
 */
import type { ExaminationResult } from "@/lib/analysis/examine/types";
import type { SplitResult } from "@/lib/analysis/types";
import type { RowTolerance } from "./tolerance-notes";

export type SetFileStatus = "uploaded" | "analyzing" | "done" | "failed";

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
}

export interface SetExamination extends ExaminationResult {
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
