import { sql } from "drizzle-orm";
import { isEmbedded, type Db } from "@/db/client";
import { newId } from "@/db/ids";
import { type Claim, claimColumns, claimOf, type NewAnalysisJobRow } from "@/db/queries/analysis-jobs";
import { afterAcceptanceCommit } from "@/db/queries/asynchronous-commit";
import { acceptAnalysisJob } from "@/db/queries/job-acceptance";
import { admissionRule } from "@/lib/jobs/admission";
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

/**
 * Accepts a job of a tiny stored file through the service's accepting
 * statement (admission enforced, its queue entry written), as an analyze
 * request of one small file does.
 */
export function acceptTestJob(db: Db, queue: { name: string; newEntryId(): string }, organizationId: string): Promise<AnalysisJobRow> {
  return acceptAnalysisJob(
    db,
    { id: newId("ana"), organizationId, storageKey: newId("blob"), inputName: "invoice.pdf", inputBytes: 8, sha256: "a".repeat(64), queueName: queue.name },
    admissionRule({ jobs: 1, enforce: true }),
    queue.newEntryId(),
    { bytes: new TextEncoder().encode("%PDF-1.7") },
  );
}

/**
 * Claims one job by its id, as take_analysis_entry claims the job of the entry
 * it took (migration 0019's claim_analysis_job, one statement): for tests of
 * the claim itself (its lock, its count, its layouts), without a queue entry.
 * Run in the job's organization scope, as the take runs the claim.
 */
export async function claimAnalysisJob(db: Db, params: { organizationId: string; jobId: string; maxRunning: number; leaseSeconds: number }): Promise<Claim> {
  const claimed = db.$with("analysis_jobs", claimColumns()).as(
    sql`SELECT claim.outcome, claim.layouts, (claim.job).*
        FROM claim_analysis_job(${params.organizationId}, ${params.jobId}, ${params.maxRunning}::integer, ${params.leaseSeconds}::integer) AS claim,
          ${sql.raw(afterAcceptanceCommit(isEmbedded(db)))} AS commit_mode`,
  );
  const [row] = await db.with(claimed).select().from(claimed);
  if (!row) throw new Error("claim_analysis_job returned no row");
  return claimOf(row);
}
