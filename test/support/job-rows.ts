import type { Db } from "@/db/client";
import type { NewAnalysisJobRow } from "@/db/queries/analysis-jobs";
import { analysisJobs, type AnalysisJobRow } from "@/db/schema";

/**
 * Inserts a job row alone: no admission, no stored file, no queue entry (the
 * service accepts a job with all three: acceptAnalysisJob). For tests that
 * claim and end jobs they made.
 */
export async function insertAnalysisJob(db: Db, values: NewAnalysisJobRow): Promise<AnalysisJobRow> {
  const [row] = await db.insert(analysisJobs).values(values).returning();
  if (!row) throw new Error("insert into analysis_jobs returned no row");
  return row;
}
