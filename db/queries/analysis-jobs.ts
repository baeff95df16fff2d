import { and, eq, getTableColumns, inArray, sql } from "drizzle-orm";
import type { LayoutHint } from "@/lib/analysis";
import { isEmbedded, type Db } from "../client";
import { analyses, analysisJobs, setFiles, storedFiles, type AnalysisJobRow, type AnalysisJobStatus, type LearnedLayoutRow } from "../schema";
import { afterAcceptanceCommit } from "./asynchronous-commit";
import { toLayoutHint } from "./learned-layouts";
import { completeEntrySql, entryWaitingSql, type FetchedEntry, type QueueEntry } from "./queue-entries";
import { jsonValue, queryRows } from "./rows";

export type NewAnalysisJobRow = typeof analysisJobs.$inferInsert & { id: string; organizationId: string };

export async function findAnalysisJob(db: Db, params: { organizationId: string; jobId: string }): Promise<AnalysisJobRow | undefined> {
  const [row] = await db
    .select()
    .from(analysisJobs)
    .where(and(eq(analysisJobs.organizationId, params.organizationId), eq(analysisJobs.id, params.jobId)))
    .limit(1);
  return row;
}

/** The organization's job, while it is neither done nor failed. */
const unfinishedJob = (params: { organizationId: string; jobId: string }) =>
  and(eq(analysisJobs.organizationId, params.organizationId), eq(analysisJobs.id, params.jobId), inArray(analysisJobs.status, ["queued", "running"]));

/** A claimed job with the layouts its organization's checkers taught, as the engine takes them. */
type ClaimedJob = AnalysisJobRow & { layoutHints: LayoutHint[] };

/** A learned_layouts row as json_agg writes it (column names, timestamps as text). */
type LearnedLayoutJson = { id: string; organization_id: string; document_type: string; issuer: string; fingerprint_id: string; fingerprint: unknown; fields: unknown };

/** What a claim came to: the job taken, "deferred" while its organization runs as many jobs as it may, or undefined once the job has ended. */
export type Claim = ClaimedJob | "deferred" | undefined;

/**
 * The columns of a claim_analysis_job row (outcome, job, layouts) with its job
 * spread under the table's name: drizzle reads the job as it reads a row of the table.
 */
export const claimColumns = () => ({
  ...getTableColumns(analysisJobs),
  outcome: sql<"taken" | "deferred" | "gone">`outcome`.as("outcome"),
  layouts: sql<LearnedLayoutJson[] | string | null>`layouts`.as("layouts"),
});

/** A claim_analysis_job row as the worker takes it (see takeAnalysisEntry). */
export function claimOf(row: AnalysisJobRow & { outcome: "taken" | "deferred" | "gone"; layouts: LearnedLayoutJson[] | string | null }): Claim {
  const { outcome, layouts, ...job } = row;
  if (outcome !== "taken") return outcome === "deferred" ? "deferred" : undefined;
  const list = jsonValue<LearnedLayoutJson[] | null>(layouts) ?? [];
  return { ...job, layoutHints: list.map(layoutOfJson) };
}

/** A queue entry a worker took, with the claim of its job made in the same statement. */
export interface TakenEntry<T> extends FetchedEntry<T> {
  claim: Claim;
}

/**
 * A worker's next entry of `queue` and the claim of its job, in one statement
 * (migration 0022's take_analysis_entry): the entry as fetch_analysis_entry
 * takes it, skipping organizations that run `maxRunning` jobs, and its job
 * claimed by migration 0019's claim_analysis_job in that job's organization
 * scope, which the function enters for the claim alone. The claim takes the
 * job — `running`, one more attempt, a lease of `leaseSeconds`, a web upload's
 * set file `analyzing` — unless its organization already runs `maxRunning`
 * other jobs under a live lease: then "deferred" (a retried job is still
 * `running` from its last attempt, so it is not counted; nor is a job whose
 * worker died). It takes the organization's claim lock before it counts, so
 * two workers (of any process) cannot both take its last place, and brings
 * back the organization's learned layouts as they are now (oldest first), so
 * a layout taught or forgotten is seen by the next job claimed. A job already
 * finished (or deleted with its set) is not taken again: undefined. Undefined
 * for the whole when no entry may start now. On PostgreSQL its commit does
 * not wait for the disk (afterAcceptanceCommit). The function sets its own
 * scopes, so the caller's connection may have any (withScopeKept).
 */
export async function takeAnalysisEntry<T>(db: Db, params: { queue: string; maxRunning: number; leaseSeconds: number }): Promise<TakenEntry<T> | undefined> {
  const taken = db.$with("analysis_jobs", {
    ...claimColumns(),
    entryId: sql<string>`entry_id`.as("entry_id"),
    entryData: sql<T | string>`entry_data`.as("entry_data"),
    entryPriority: sql<number>`entry_priority`.as("entry_priority"),
    entryRetryCount: sql<number>`entry_retry_count`.as("entry_retry_count"),
  }).as(
    sql`SELECT take.entry_id, take.entry_data, take.entry_priority, take.entry_retry_count, take.outcome, take.layouts, (take.job).*
        FROM take_analysis_entry(${params.queue}, ${params.maxRunning}::integer, ${params.leaseSeconds}::integer) AS take,
          ${sql.raw(afterAcceptanceCommit(isEmbedded(db)))} AS commit_mode`,
  );
  const [row] = await db.with(taken).select().from(taken);
  if (!row) return undefined;
  const { entryId, entryData, entryPriority, entryRetryCount, ...claim } = row;
  return { id: entryId, data: jsonValue(entryData), priority: Number(entryPriority), retryCount: Number(entryRetryCount), claim: claimOf(claim) };
}

function layoutOfJson(json: LearnedLayoutJson): LayoutHint {
  const row = { id: json.id, documentType: json.document_type, issuer: json.issuer, fingerprint: json.fingerprint, fields: json.fields } as LearnedLayoutRow;
  return toLayoutHint(row);
}

/** What a finished read leaves: the analysis and, for a web upload, its pages. */
export interface CompletedRead {
  pageCount: number;
  result: unknown;
  pageText: unknown;
  durationMs: number;
  /** The pages a web upload keeps (set_files.pages). */
  pages?: unknown;
}

/**
 * Ends a job done in one statement, atomic without a transaction (on PGlite
 * every statement runs on the server's own thread, so fewer is faster): the
 * job `done`, its analysis recorded under the job's id, and either its set
 * file done with its pages (a web upload) or its stored bytes dropped (an API
 * input). Only an unfinished job ends: undefined when it had already ended or
 * was deleted with its set, and then nothing is written. Given the worker's
 * queue `entry`, the same statement completes it (whether the job ended now or
 * before) and says whether another entry waits (`waiting`). On PostgreSQL its
 * commit does not wait for the disk (afterAcceptanceCommit).
 */
export async function completeAnalysisJob(
  db: Db,
  params: { organizationId: string; jobId: string },
  read: CompletedRead,
  entry?: QueueEntry,
): Promise<{ id: string; waiting?: boolean } | undefined> {
  const pages = read.pages === undefined ? null : JSON.stringify(read.pages);
  const [row] = await queryRows<{ id: string; waiting?: boolean }>(
    db,
    sql`WITH ${entry ? sql`entry_done AS (${completeEntrySql(entry)}), ` : sql``}settled AS (
          UPDATE ${analysisJobs} SET status = 'done', error_code = NULL, error_detail = NULL, finished_at = now()
          WHERE ${analysisJobs.organizationId} = ${params.organizationId} AND ${analysisJobs.id} = ${params.jobId}
            AND ${analysisJobs.status} IN ('queued', 'running')
          RETURNING id, organization_id, api_key_id, user_id, input_name, input_bytes, sha256, storage_key, set_file_id
        ), recorded AS (
          INSERT INTO ${analyses} (id, organization_id, api_key_id, user_id, input_name, input_bytes, sha256, page_count, result, page_text, duration_ms)
          SELECT id, organization_id, api_key_id, user_id, input_name, input_bytes, sha256, ${read.pageCount}::integer,
                 ${JSON.stringify(read.result)}::jsonb, ${JSON.stringify(read.pageText)}::jsonb, ${read.durationMs}::integer
          FROM settled
        ), file_done AS (
          UPDATE ${setFiles} SET status = 'done', page_count = ${read.pageCount}::integer, analysis_id = settled.id, pages = ${pages}::jsonb
          FROM settled WHERE ${setFiles.organizationId} = settled.organization_id AND ${setFiles.id} = settled.set_file_id
        ), bytes_dropped AS (
          DELETE FROM ${storedFiles} USING settled
          WHERE ${storedFiles.organizationId} = settled.organization_id AND ${storedFiles.storageKey} = settled.storage_key
            AND settled.set_file_id IS NULL
        )
        SELECT id${entry ? sql`, ${entryWaitingSql(entry.queue)} AS waiting` : sql``} FROM settled, ${sql.raw(afterAcceptanceCommit(isEmbedded(db)))} AS commit_mode`,
  );
  return row;
}

export interface JobProgress {
  pagesDone: number;
  pagesTotal: number;
  estimatedEndAt: Date | null;
}

/** How far the reader of a running job has got (job-progress.ts throttles these writes). */
export async function recordJobProgress(db: Db, params: { organizationId: string; jobId: string }, progress: JobProgress): Promise<void> {
  await db
    .update(analysisJobs)
    .set(progress)
    .where(and(eq(analysisJobs.organizationId, params.organizationId), eq(analysisJobs.id, params.jobId), eq(analysisJobs.status, "running")));
}

/** The worker of a running job is alive: its lease holds `leaseSeconds` more. */
export async function renewJobLease(db: Db, params: { organizationId: string; jobId: string; leaseSeconds: number }): Promise<void> {
  await db
    .update(analysisJobs)
    .set({ leaseExpiresAt: sql`now() + make_interval(secs => ${params.leaseSeconds})` })
    .where(and(eq(analysisJobs.organizationId, params.organizationId), eq(analysisJobs.id, params.jobId), eq(analysisJobs.status, "running")));
}

/** Of the organization's given jobs, those running under a live lease (their worker is alive). */
export async function listLeasedJobs(db: Db, params: { organizationId: string; jobIds: string[] }): Promise<string[]> {
  if (params.jobIds.length === 0) return [];
  const rows = await db
    .select({ id: analysisJobs.id })
    .from(analysisJobs)
    .where(
      and(
        eq(analysisJobs.organizationId, params.organizationId),
        inArray(analysisJobs.id, params.jobIds),
        eq(analysisJobs.status, "running"),
        sql`${analysisJobs.leaseExpiresAt} > now()`,
      ),
    );
  return rows.map((row) => row.id);
}

/** The progress of the running jobs that read the given set files. */
export async function listSetFileProgress(
  db: Db,
  params: { organizationId: string; fileIds: string[] },
): Promise<(JobProgress & { setFileId: string })[]> {
  if (params.fileIds.length === 0) return [];
  const rows = await db
    .select({ setFileId: analysisJobs.setFileId, pagesDone: analysisJobs.pagesDone, pagesTotal: analysisJobs.pagesTotal, estimatedEndAt: analysisJobs.estimatedEndAt })
    .from(analysisJobs)
    .where(and(eq(analysisJobs.organizationId, params.organizationId), inArray(analysisJobs.setFileId, params.fileIds), eq(analysisJobs.status, "running")));
  return rows.flatMap((r) => (r.setFileId && r.pagesDone !== null && r.pagesTotal !== null ? [{ ...r, setFileId: r.setFileId, pagesDone: r.pagesDone, pagesTotal: r.pagesTotal }] : []));
}

/**
 * Ends an unfinished job. Only one ending can win: an attempt that finds the
 * job already ended (by an attempt the queue gave up on and retried) or
 * deleted gets undefined and must write nothing else. Given the worker's
 * queue `entry`, the same statement completes it, whichever way.
 */
export async function settleAnalysisJob(
  db: Db,
  params: { organizationId: string; jobId: string },
  values: { status: Extract<AnalysisJobStatus, "done" | "failed">; errorCode?: string; errorDetail?: string },
  entry?: QueueEntry,
): Promise<AnalysisJobRow | undefined> {
  // A data-modifying CTE runs to completion even though the update does not read it.
  const update = entry ? db.with(db.$with("entry_done", { id: sql<string>`id` }).as(completeEntrySql(entry))).update(analysisJobs) : db.update(analysisJobs);
  const [row] = await update
    .set({ status: values.status, errorCode: values.errorCode ?? null, errorDetail: values.errorDetail ?? null, finishedAt: sql`now()` })
    .where(unfinishedJob(params))
    .returning();
  return row;
}

/** Jobs of an organization not yet finished (tests and shutdown wait for none). */
export async function countUnfinishedJobs(db: Db, params: { organizationId?: string } = {}): Promise<number> {
  const [row] = await db
    .select({ count: sql<string>`count(*)` })
    .from(analysisJobs)
    .where(
      and(
        inArray(analysisJobs.status, ["queued", "running"]),
        params.organizationId ? eq(analysisJobs.organizationId, params.organizationId) : undefined,
      ),
    );
  return Number(row?.count ?? 0);
}

/** How long an Idempotency-Key names its first request. */
const IDEMPOTENCY_HOURS = 24;

/** The job an organization's Idempotency-Key named within the last 24 hours. */
export async function findJobByIdempotencyKey(db: Db, params: { organizationId: string; key: string }): Promise<AnalysisJobRow | undefined> {
  const [row] = await db
    .select()
    .from(analysisJobs)
    .where(
      and(
        eq(analysisJobs.organizationId, params.organizationId),
        eq(analysisJobs.idempotencyKey, params.key),
        sql`${analysisJobs.createdAt} > now() - make_interval(hours => ${IDEMPOTENCY_HOURS})`,
      ),
    )
    .limit(1);
  return row;
}

/** Frees a key whose 24 hours are over, so that it may name a new request. */
export async function releaseExpiredIdempotencyKey(db: Db, params: { organizationId: string; key: string }): Promise<void> {
  await db
    .update(analysisJobs)
    .set({ idempotencyKey: null })
    .where(
      and(
        eq(analysisJobs.organizationId, params.organizationId),
        eq(analysisJobs.idempotencyKey, params.key),
        sql`${analysisJobs.createdAt} <= now() - make_interval(hours => ${IDEMPOTENCY_HOURS})`,
      ),
    );
}
