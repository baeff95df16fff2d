import { createHash } from "node:crypto";
import type { Db } from "@/db/client";
import { newId } from "@/db/ids";
import { findJobByIdempotencyKey, insertAnalysisJob, releaseExpiredIdempotencyKey } from "@/db/queries/analysis-jobs";
import { insertStoredFile } from "@/db/queries/sets-storage";
import type { AnalysisJobRow } from "@/db/schema";
import { admitJobs } from "./admission";
import { analysisQueue, type AnalysisQueue } from "./analysis-queue";
import { offerJobBytes } from "./bytes-handoff";
import { checkDocument, type DeclaredType } from "./check-document";
import { IdempotencyConflictError } from "./errors";
import { env } from "@/lib/env";
import { ensureInProcessWorker } from "./worker";

/** The record keeps at most this much of a file name or url. */
const INPUT_NAME_MAX_LENGTH = 255;

export interface DocumentInput {
  organizationId: string;
  apiKeyId?: string | null;
  userId?: string | null;
  /** The file name or the url's last segment (shown, never used as a path). */
  name: string;
  bytes: Uint8Array;
  declared?: DeclaredType;
  /** Keep, per extracted key, where it was found (`?evidence=true`). */
  evidence: boolean;
  /** The client's Idempotency-Key and a digest of its request (submitOnce). */
  idempotency?: { key: string; requestHash: string };
  /** Where the outcome is posted, signed, when the job ends (checked by the caller). */
  callbackUrl?: string;
}

/** A stored web upload whose analysis follows its status (uploaded → analyzing → done or failed). */
export interface StoredFileInput {
  organizationId: string;
  userId: string | null;
  setFileId: string;
  storageKey: string;
  name: string;
  sizeBytes: number;
  sha256: string;
}

function sha256Of(bytes: Uint8Array): string {
  return createHash("sha256").update(bytes).digest("hex");
}

/**
 * Accepts documents for analysis: each is checked (checkDocument), admitted
 * under the organization's and the server's caps, its bytes stored and its job
 * queued — all of them in one transaction, so that either every document of a
 * request is queued or none is. Returns the jobs in order; their ids are the
 * ids the analyses will have.
 */
export async function submitAnalyses(db: Db, inputs: DocumentInput[]): Promise<AnalysisJobRow[]> {
  inputs.forEach((input) => checkDocument(input.bytes, input.declared));
  const organizationId = inputs[0]?.organizationId;
  if (!organizationId) return [];
  const queue = await analysisQueue(db);
  const jobs = await db.transaction(async (tx) => {
    const priority = await admitJobs(tx, { organizationId, count: inputs.length, enforce: true });
    const rows: AnalysisJobRow[] = [];
    for (const input of inputs) {
      if (input.idempotency) await releaseExpiredIdempotencyKey(tx, { organizationId, key: input.idempotency.key });
      const storageKey = newId("blob");
      await insertStoredFile(tx, { organizationId, storageKey, bytes: input.bytes });
      const row = await insertAnalysisJob(tx, {
        id: newId("ana"),
        organizationId,
        apiKeyId: input.apiKeyId ?? null,
        userId: input.userId ?? null,
        storageKey,
        inputName: input.name.slice(0, INPUT_NAME_MAX_LENGTH),
        inputBytes: input.bytes.length,
        sha256: sha256Of(input.bytes),
        evidence: input.evidence,
        idempotencyKey: input.idempotency?.key ?? null,
        requestHash: input.idempotency?.requestHash ?? null,
        callbackUrl: input.callbackUrl ?? null,
        queueName: queue.name,
      }, queue);
      await queue.send(tx, { jobId: row.id, organizationId }, priority, row.lowestWaitingPriority);
      rows.push(row);
    }
    return rows;
  });
  // This process's worker usually takes the job at once: it reads these bytes instead of the stored copy.
  if (env().ANALYSIS_IN_PROCESS_WORKER) jobs.forEach((job, i) => offerJobBytes(job.id, inputs[i]!.bytes));
  await wakeWorkers(db, jobs.length);
  return jobs;
}

/**
 * The job an Idempotency-Key already names (within 24 hours) for the same
 * request, or undefined when the key is new. The same key with another
 * request is refused (IdempotencyConflictError, 422).
 */
export async function findIdempotentJob(db: Db, params: { organizationId: string; key: string; requestHash: string }): Promise<AnalysisJobRow | undefined> {
  const existing = await findJobByIdempotencyKey(db, params);
  if (existing && existing.requestHash !== params.requestHash) throw new IdempotencyConflictError(params.key);
  return existing;
}

/**
 * Submits one document at most once per Idempotency-Key: a replay (even one
 * racing the first request) gets the first request's job.
 */
export async function submitOnce(db: Db, input: DocumentInput): Promise<AnalysisJobRow> {
  const idempotency = input.idempotency;
  if (idempotency) {
    const existing = await findIdempotentJob(db, { organizationId: input.organizationId, ...idempotency });
    if (existing) return existing;
  }
  try {
    const [job] = await submitAnalyses(db, [input]);
    return job!;
  } catch (error) {
    // Two requests with one key at once: the unique index let one in; the other answers with its job.
    const raced = idempotency && (await findIdempotentJob(db, { organizationId: input.organizationId, ...idempotency }));
    if (raced) return raced;
    throw error;
  }
}

/**
 * Queues the analysis of a web upload inside the transaction that stores it
 * (so an accepted upload always has its job). Uploads already accepted are not
 * refused for load; they take their organization's turn. `queue` is started
 * before the transaction (analysisQueue); call wakeWorkers after it commits.
 */
export async function enqueueStoredFile(tx: Db, queue: AnalysisQueue, input: StoredFileInput): Promise<void> {
  const priority = await admitJobs(tx, { organizationId: input.organizationId, count: 1, enforce: false });
  const row = await insertAnalysisJob(tx, {
    id: newId("ana"),
    organizationId: input.organizationId,
    userId: input.userId,
    setFileId: input.setFileId,
    storageKey: input.storageKey,
    inputName: input.name.slice(0, INPUT_NAME_MAX_LENGTH),
    inputBytes: input.sizeBytes,
    sha256: input.sha256,
    // The web app shows where each value was found.
    evidence: true,
    queueName: queue.name,
  }, queue);
  await queue.send(tx, { jobId: row.id, organizationId: input.organizationId }, priority, row.lowestWaitingPriority);
}

/** Starts this process's worker if it runs one, and lets it look for the `jobs` new jobs now. */
export async function wakeWorkers(db: Db, jobs: number): Promise<void> {
  await ensureInProcessWorker(db);
  (await analysisQueue(db)).wake(jobs);
}
