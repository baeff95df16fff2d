import type { SetFileSummary } from "@/db/queries/sets-files";
import type { SplitCorrectionRow } from "@/db/schema";
import type { Page, SplitResult } from "@/lib/analysis";
import type { CorrectionView, SetFileView } from "./types";

/** A file as the set view shows it: the newest correction's splits win over the engine's. */
export function toFileView(
  row: SetFileSummary,
  data: { pages: Page[] | null; analysisResult: SplitResult[] | null; corrections: SplitCorrectionRow[] },
): SetFileView {
  const latest = data.corrections.at(-1);
  const splits = (latest ? (latest.result as SplitResult[]) : data.analysisResult) ?? [];
  return {
    id: row.id,
    fileName: row.fileName,
    sizeBytes: row.sizeBytes,
    format: row.format,
    status: row.status,
    errorDetail: row.errorDetail,
    pageCount: row.pageCount,
    createdAt: row.createdAt.toISOString(),
    pageSizes: (data.pages ?? []).map((p) => ({ width: p.width, height: p.height })),
    splits,
    corrections: data.corrections.map(toCorrectionView),
    // A checker's field corrections and review marks are laid over by applyFileReview.
    fieldCorrections: [],
    reviews: [],
    // The running job's progress is laid over by getSet.
    progress: null,
  };
}

function toCorrectionView(row: SplitCorrectionRow): CorrectionView {
  return {
    action: row.action,
    splitIndex: row.splitIndex,
    page: row.page,
    documentType: row.documentType,
    createdAt: row.createdAt.toISOString(),
  };
}
