import { createHash } from "node:crypto";
import type { Db } from "@/db/client";
import { newId } from "@/db/ids";
import { findJobByIdempotencyKey, releaseExpiredIdempotencyKey } from "@/db/queries/analysis-jobs";
import { acceptAnalysisJob } from "@/db/queries/job-acceptance";
import { insertStoredFile, markStoredFileReceived } from "@/db/queries/sets-storage";
import type { AnalysisJobRow } from "@/db/schema";
import { admissionRule, refusalOf } from "./admission";
import { analysisQueue, type AnalysisQueue } from "./analysis-queue";
import { offerJobBytes } from "./bytes-handoff";
import type { DocumentFormat } from "@/lib/analysis";
import { checkDocument, checkSniffedDocument, type DeclaredType } from "./check-document";
import { IdempotencyConflictError } from "./errors";
import { env } from "@/lib/env";
import { ensureInProcessWorker } from "./worker";

/** The record keeps at most this much of a file name or url. */
const INPUT_NAME_MAX_LENGTH = 255;

interface DocumentFields {
  organizationId: string;
  apiKeyId?: string | null;
  userId?: string | null;
  /** The file name or the url's last segment (shown, never used as a path). */
  name: string;
  declared?: DeclaredType;
  /** Keep, per extracted key, where it was found (`?evidence=true`). */
  evidence: boolean;
  /** The client's Idempotency-Key and a digest of its request (submitOnce). */
  idempotency?: { key: string; requestHash: string };
  /** Where the outcome is posted, signed, when the job ends (checked by the caller). */
  callbackUrl?: string;
}

/**
 * An upload streamed by the intake (lib/api/upload-chunks.ts), not yet
 * received: the transaction that accepts it marks it so, or writes it.
 */
export interface StoredUpload {
  storageKey: string;
  sizeBytes: number;
  sha256: string;
  /** What its bytes are, as sniffFormat decides on the whole file; undefined when none we read. */
  format: DocumentFormat | undefined;
  /**
   * The whole file when it ended inside its first chunk and the intake held
   * it: it is not in storage yet (the accepting statement writes it), and
   * this process's worker takes it without reading it back.
   */
  bytes?: Uint8Array;
}

/** A document's content: its bytes in memory (a fetched url, compare's files), or its upload in storage. */
export type DocumentContent = { bytes: Uint8Array; upload?: undefined } | { upload: StoredUpload; bytes?: undefined };

export type DocumentInput = DocumentFields & DocumentContent;

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

/** The check every input passes (checkDocument), on its bytes or on what its upload's intake sniffed. */
function checkInput(input: DocumentInput): void {
  if (input.upload) checkSniffedDocument(input.upload, input.declared);
  else checkDocument(input.bytes, input.declared);
}

/** A document as the accepting statement keeps it: its key, length and digest, and its bytes when they are not in storage yet. */
interface KeptInput {
  storageKey: string;
  sizeBytes: number;
  sha256: string;
  unstored?: Uint8Array;
}

function keptInput(content: DocumentContent): KeptInput {
  if (content.upload) {
    const { storageKey, sizeBytes, sha256, bytes } = content.upload;
    return { storageKey, sizeBytes, sha256, unstored: bytes };
  }
  return { storageKey: newId("blob"), sizeBytes: content.bytes.length, sha256: sha256Of(content.bytes), unstored: content.bytes };
}

async function markReceived(tx: Db, organizationId: string, storageKey: string): Promise<void> {
  if (!(await markStoredFileReceived(tx, { organizationId, storageKey }))) throw new Error(`the upload ${storageKey} is not in storage`);
}

/**
 * Keeps a document's bytes in the accepting transaction: bytes in memory (a
 * held upload's too) are written as a received file; an upload already in
 * storage is marked received. Returns its storage key, length and digest.
 */
export async function storeInput(tx: Db, organizationId: string, content: DocumentContent): Promise<{ storageKey: string; sizeBytes: number; sha256: string }> {
  const { unstored, ...kept } = keptInput(content);
  if (unstored) await insertStoredFile(tx, { organizationId, storageKey: kept.storageKey, sha256: kept.sha256, bytes: unstored });
  else await markReceived(tx, organizationId, kept.storageKey);
  return kept;
}

/** What this process's worker may take without reading the stored copy back (bytes-handoff). */
function handoffBytes(content: DocumentContent): Uint8Array | undefined {
  return content.upload ? content.upload.bytes : content.bytes;
}

/**
 * Accepts documents for analysis: each is checked (checkDocument), admitted
 * under the organization's and the server's caps, its bytes stored and its job
 * queued (acceptAnalysisJob) — all of them or none. One small file without an
 * Idempotency-Key is one statement, atomic by itself; anything more is one
 * transaction. Returns the jobs in order; their ids are the ids the analyses
 * will have.
 */
export async function submitAnalyses(db: Db, inputs: DocumentInput[]): Promise<AnalysisJobRow[]> {
  inputs.forEach(checkInput);
  const organizationId = inputs[0]?.organizationId;
  if (!organizationId) return [];
  const queue = await analysisQueue(db);
  const kept = inputs.map(keptInput);
  const accept = async (handle: Db) => {
    const rows: AnalysisJobRow[] = [];
    for (const [i, input] of inputs.entries()) {
      if (input.idempotency) await releaseExpiredIdempotencyKey(handle, { organizationId, key: input.idempotency.key });
      // Bytes not in storage yet are written by the job's own statement; an upload in storage is marked received.
      const stored = kept[i]!;
      if (!stored.unstored) await markReceived(handle, organizationId, stored.storageKey);
      // The first job's admission decides for them all (and holds the admission lock for the rest of the transaction).
      const rule = admissionRule({ jobs: inputs.length, enforce: i === 0 });
      const row = await acceptAnalysisJob(
        handle,
        {
          id: newId("ana"),
          organizationId,
          apiKeyId: input.apiKeyId ?? null,
          userId: input.userId ?? null,
          storageKey: stored.storageKey,
          inputName: input.name.slice(0, INPUT_NAME_MAX_LENGTH),
          inputBytes: stored.sizeBytes,
          sha256: stored.sha256,
          evidence: input.evidence,
          idempotencyKey: input.idempotency?.key ?? null,
          requestHash: input.idempotency?.requestHash ?? null,
          callbackUrl: input.callbackUrl ?? null,
          queueName: queue.name,
        },
        rule,
        queue.newEntryId(),
        stored.unstored && { bytes: stored.unstored },
      );
      rows.push(row);
    }
    return rows;
  };
  const oneStatement = inputs.length === 1 && !inputs[0]!.idempotency && kept[0]!.unstored !== undefined;
  let jobs: AnalysisJobRow[];
  try {
    jobs = await (oneStatement ? accept(db) : db.transaction(accept));
  } catch (error) {
    throw await refusalOf(db, error);
  }
  queue.entriesQueued(jobs.length);
  // This process's worker usually takes the job at once: it reads these bytes instead of the stored copy.
  // An upload larger than one chunk was never held whole: its worker reads it from its chunks.
  if (env().ANALYSIS_IN_PROCESS_WORKER) {
    jobs.forEach((job, i) => {
      const bytes = handoffBytes(inputs[i]!);
      if (bytes) offerJobBytes(job.id, bytes);
    });
  }
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
  await acceptAnalysisJob(
    tx,
    {
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
    },
    admissionRule({ jobs: 1, enforce: false }),
    queue.newEntryId(),
  );
  queue.entriesQueued(1);
}

/** Starts this process's worker if it runs one, and lets it look for the `jobs` new jobs now. */
export async function wakeWorkers(db: Db, jobs: number): Promise<void> {
  await ensureInProcessWorker(db);
  (await analysisQueue(db)).wake(jobs);
}
