import { sql } from "drizzle-orm";
import type { Db } from "../client";
import { analysisJobs, type AnalysisJobRow } from "../schema";
import type { NewAnalysisJobRow } from "./analysis-jobs";
import { insertEntrySql } from "./queue-entries";
import { receivedFileWrites } from "./sets-storage";

/** What migration 0021's admit_analysis_jobs decides with, for one accepting statement. */
export interface AdmissionRule {
  /** Jobs admitted together (a compare's files): the organization's cap counts them all. */
  jobs: number;
  /** false: counted, never refused (an upload already stored takes its organization's turn). */
  enforce: boolean;
  /** The organization's jobs waiting or running at most (ANALYSIS_ORG_MAX_JOBS). */
  maxJobs: number;
  /** Every organization's together: once this many are, no job is admitted. */
  maxActive: number;
}

/** The SQLSTATEs admit_analysis_jobs refuses with; the error's DETAIL is the count behind the refusal. */
export const ORGANIZATION_BUSY_STATE = "SH429";
export const QUEUE_FULL_STATE = "SH503";

/**
 * Admits, stores and queues one job in one statement, atomic without a
 * transaction: admit_analysis_jobs (migration 0021) takes the admission lock,
 * counts and decides — refusing with ORGANIZATION_BUSY_STATE or
 * QUEUE_FULL_STATE, so that nothing is written — and gives the job's priority;
 * the job's row names its queue through that admission, so it is decided
 * first; `file` (bytes not in storage yet: a small upload, a fetched url) is
 * kept as the job's stored file, received at once; and the job's queue entry
 * (pg-boss's table, insertEntrySql) is written with id `entryId`. Inside a
 * transaction (a compare's files), each job is a statement of it.
 */
export async function acceptAnalysisJob(
  db: Db,
  job: NewAnalysisJobRow & { queueName: string },
  rule: AdmissionRule,
  entryId: string,
  file?: { bytes: Uint8Array },
): Promise<AnalysisJobRow> {
  const admitted = db.$with("admitted", { priority: sql<number>`priority` }).as(
    sql`SELECT admit_analysis_jobs(${job.organizationId}, ${job.queueName}, ${rule.jobs}::integer, ${rule.enforce}, ${rule.maxJobs}::integer, ${rule.maxActive}::integer) AS priority`,
  );
  const writes = file ? receivedFileWrites(db, { organizationId: job.organizationId, storageKey: job.storageKey, sha256: job.sha256 ?? undefined, bytes: file.bytes }) : [];
  const accepted = db.$with("accepted").as(
    db.insert(analysisJobs).values({ ...job, queueName: sql`(SELECT ${job.queueName}::text FROM admitted)` }).returning(),
  );
  const entry = db.$with("entry", { id: sql<string>`id` }).as(
    insertEntrySql({
      queue: job.queueName,
      id: entryId,
      data: sql`jsonb_build_object('jobId', accepted.id, 'organizationId', accepted.organization_id)`,
      priority: sql`admitted.priority`,
      from: sql`accepted, admitted`,
    }),
  );
  const [row] = await db.with(admitted, ...writes, accepted, entry).select().from(accepted);
  if (!row) throw new Error("the accepting statement returned no job");
  return row;
}
