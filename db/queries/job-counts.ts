import { sql, type SQL } from "drizzle-orm";
import type { Db } from "../client";
import { analysisJobs } from "../schema";
import { queryRows } from "./rows";

/**
 * What admission and the rate limit count of a queue's unfinished jobs
 * (migration 0018's admission_counts), and the recent jobs' duration behind
 * Retry-After.
 */
export interface JobCounts {
  /** Jobs of every organization not yet finished (waiting or running). */
  active: number;
  /** The organization's jobs running now. */
  organizationRunning: number;
  /** The organization's jobs waiting for a worker. */
  organizationQueued: number;
}

/** Which organization's unfinished jobs of which queue admission_counts counts. */
export interface JobCountsQuery {
  organizationId: string;
  queueName: string;
}

/**
 * Migration 0018's admission_counts as a row source (`FROM … AS counts`), for
 * a statement that reads the counts beside its own work (the rate limit's):
 * the function enters the system scope for its count alone, so the
 * connection's scope does not change what it counts. Without the admission
 * lock: these counts are advisory (precheckAdmission); the accepting
 * statement decides after the lock (migration 0021's admit_analysis_jobs).
 */
export function jobCountsSource(query: JobCountsQuery): SQL {
  return sql`admission_counts(${query.organizationId}, ${query.queueName}, false)`;
}

/** The counts of a row that selected admission_counts' active, running and queued. */
export function jobCountsOf(row: { active: string | number | null; running: string | number | null; queued: string | number | null } | undefined): JobCounts {
  return { active: Number(row?.active ?? 0), organizationRunning: Number(row?.running ?? 0), organizationQueued: Number(row?.queued ?? 0) };
}

/**
 * The unfinished jobs of one queue (another queue has its own workers and
 * caps), counted across every organization whatever the caller's scope, in one
 * statement (migration 0018's admission_counts, which enters the system scope
 * for its count alone).
 */
export async function countActiveJobs(db: Db, params: JobCountsQuery): Promise<JobCounts> {
  const [row] = await queryRows<{ active: string; running: string; queued: string }>(db, sql`SELECT active, running, queued FROM ${jobCountsSource(params)}`);
  return jobCountsOf(row);
}

/** Mean seconds of the last finished jobs (behind Retry-After); undefined before any. */
export async function recentJobSeconds(db: Db): Promise<number | undefined> {
  const [row] = await queryRows<{ seconds: string | null }>(
    db,
    sql`SELECT avg(extract(epoch FROM finished_at - started_at)) AS seconds FROM (
          SELECT ${analysisJobs.finishedAt} AS finished_at, ${analysisJobs.startedAt} AS started_at FROM ${analysisJobs}
          WHERE ${analysisJobs.status} = 'done' AND ${analysisJobs.startedAt} IS NOT NULL
          ORDER BY ${analysisJobs.finishedAt} DESC LIMIT 20) recent`,
  );
  return row?.seconds == null ? undefined : Number(row.seconds);
}
