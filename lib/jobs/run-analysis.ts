import type { Db } from "@/db/client";
import { type Claim, completeAnalysisJob, type JobProgress, recordJobProgress, settleAnalysisJob } from "@/db/queries/analysis-jobs";
import { updateSetFile } from "@/db/queries/sets-files";
import { deleteStoredFiles, readStoredFile } from "@/db/queries/sets-storage";
import { withOrganizationScope } from "@/db/scope";
import type { AnalysisJobRow } from "@/db/schema";
import { AnalysisError } from "@/lib/analysis";
import type { ProcessPool } from "@/lib/readers/pool";
import { env } from "@/lib/env";
import type { QueueEntry } from "@/db/queries/queue-entries";
import { analysisQueue, type QueuedJob } from "./analysis-queue";
import type { EntryEnded } from "./entry-workers";
import { takeJobBytes } from "./bytes-handoff";
import { announceClaim, announceOutcome } from "./job-events";
import { progressRecorder } from "./job-progress";
import { readDocument, type ReadDocument } from "./read-document";

/** What a set file shows when its analysis failed for a reason that is not the file's. */
const INTERNAL_FAILURE_DETAIL = "The file could not be analysed because of an internal error; try uploading it again.";

/**
 * One attempt at one job, given its `claimed` outcome (the job `running` and
 * its set file `analyzing`: takeAnalysisEntry claims as the worker takes the
 * entry): read the stored bytes in a reader, run the pipeline, and end it
 * atomically — the analysis row, the job's status and the set file's status
 * together, in one statement (completeAnalysisJob). A refusal of the file
 * (AnalysisError) ends the job failed with its reason; any other error is
 * thrown for the queue to retry.
 * A job already ended, or deleted with its set meanwhile, writes nothing.
 * A job whose organization already ran ANALYSIS_ORG_MAX_RUNNING jobs was not
 * taken: "deferred", and the queue hands it out again a moment later.
 * Given the worker's queue `entry`, the statement that ends the job completes
 * it too (no statement of pg-boss's own): `{ waiting }` then says so.
 */
export async function runAnalysisJob(db: Db, job: QueuedJob, claimed: Claim, pool: ProcessPool, entry?: QueueEntry): Promise<"deferred" | EntryEnded> {
  const scope = { organizationId: job.organizationId, jobId: job.jobId };
  if (claimed === "deferred") return "deferred";
  if (!claimed) return;
  announceClaim(job.jobId);
  // Submitted by this process a moment ago: its bytes are still here (the stored copy is for any other attempt).
  const bytes = takeJobBytes(job.jobId) ?? (await readStoredFile(db, { organizationId: job.organizationId, storageKey: claimed.storageKey }));
  if (!bytes) throw new Error(`the stored bytes of analysis job ${job.jobId} are missing`);
  let read: ReadDocument;
  try {
    // A web upload keeps its pages (the set page draws where each value was found); an API input needs only the array.
    const options = { fileName: claimed.inputName ?? "", evidence: claimed.evidence, maxPages: env().MAX_PAGES, tenant: job.organizationId, keepPages: claimed.setFileId !== null };
    // Pages read so far, on the job's row while it runs (the set page and GET /v1/analyses/{id} show them).
    // The reader's reports arrive on its channel, outside this job's row-level security scope: each write names it again.
    const record = (value: JobProgress) => withOrganizationScope(job.organizationId, () => recordJobProgress(db, scope, value));
    const progress = progressRecorder(record, { context: `analysis job ${job.jobId} progress` });
    // The layouts the organization's checkers taught, read with the claim: a document of one reads the taught fields there.
    read = await readDocument(bytes, { ...options, layoutHints: claimed.layoutHints, onProgress: progress.report }, pool).finally(progress.close);
  } catch (error) {
    if (!(error instanceof AnalysisError)) throw error;
    await failAnalysisJob(db, claimed, error.code, error.message, entry);
    // A refusal is rare: the worker looks again at once rather than the statement telling it whether to.
    return entry && { waiting: true };
  }
  // One statement ends the job (on PGlite every statement runs on the server's thread); a job with a
  // callback_url also queues its webhook, in one transaction with its ending.
  const complete = async (handle: Db) => {
    const row = await completeAnalysisJob(handle, scope, read, entry);
    if (row) await queueWebhook(db, handle, claimed);
    return row;
  };
  const settled = claimed.callbackUrl ? await db.transaction(complete) : await complete(db);
  if (settled && claimed.callbackUrl) await wakeWebhookWorker(db);
  if (settled) announceOutcome({ jobId: job.jobId, status: "done", result: read.result, pageText: read.pageText });
  // The entry was completed whether the job ended now or already had; only the first tells whether another waits.
  return entry && { waiting: settled?.waiting ?? true };
}

/**
 * Ends a job failed with its reason (the engine's refusal, or `internal`
 * when the queue gave up on it), with its set file, in one transaction. An
 * API input's bytes are dropped; a web upload keeps its file. Given the
 * worker's queue `entry`, the statement that ends the job completes it too.
 */
export async function failAnalysisJob(
  db: Db,
  job: Pick<AnalysisJobRow, "id" | "organizationId">,
  errorCode: string,
  errorDetail: string,
  entry?: QueueEntry,
): Promise<void> {
  const scope = { organizationId: job.organizationId, jobId: job.id };
  const settled = await db.transaction(async (tx) => {
    const row = await settleAnalysisJob(tx, scope, { status: "failed", errorCode, errorDetail }, entry);
    if (!row) return undefined;
    if (row.setFileId) {
      const detail = errorCode === "internal" ? INTERNAL_FAILURE_DETAIL : errorDetail;
      await updateSetFile(tx, { organizationId: row.organizationId, fileId: row.setFileId }, { status: "failed", errorDetail: detail });
    } else {
      await deleteStoredFiles(tx, { organizationId: row.organizationId, storageKeys: [row.storageKey] });
    }
    await queueWebhook(db, tx, row);
    return row;
  });
  if (settled?.callbackUrl) await wakeWebhookWorker(db);
  if (settled) announceOutcome({ jobId: job.id, status: "failed", errorCode, errorDetail });
}

/**
 * A job that names a callback_url has its outcome posted there: queued with
 * its ending, so it is sent once the ending commits, and never lost. Wake the
 * webhook worker after the commit (wakeWebhookWorker).
 */
async function queueWebhook(db: Db, tx: Db, row: Pick<AnalysisJobRow, "id" | "organizationId" | "callbackUrl">): Promise<void> {
  if (row.callbackUrl) await (await analysisQueue(db)).sendWebhook(tx, { jobId: row.id, organizationId: row.organizationId });
}

/** This process's webhook worker sends a delivery its ending has just committed now, not at its next poll. */
async function wakeWebhookWorker(db: Db): Promise<void> {
  (await analysisQueue(db)).wakeWebhooks();
}
