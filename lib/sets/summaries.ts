import type { DocumentSetSummaryRow } from "@/db/queries/sets";
import type { SetSummary } from "./types";

export function toSetSummary(row: DocumentSetSummaryRow): SetSummary {
  return {
    id: row.id,
    name: row.name,
    presentationDate: row.presentationDate,
    createdAt: row.createdAt.toISOString(),
    fileCount: row.fileCount,
    pageCount: row.pageCount,
    analyzingCount: row.analyzingCount,
    failedCount: row.failedCount,
  };
}
