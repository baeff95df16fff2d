import "server-only";
import { createHash } from "node:crypto";
import type { AnalysisJobRow } from "@/db/schema";
import { isIsoDate, examineFiles, type AnalyzeFile, AnalysisError } from "@/lib/analysis";
import { env } from "@/lib/env";
import { checkSniffedDocument, declaredPartType, findIdempotentJob, IdempotencyConflictError, precheckAdmission, resultOf, submitAnalyses, waitForAnalysis, type StoredUpload } from "@/lib/jobs";
import { consumeRateLimit, limitForKind, organizationBucket } from "./rate-limit";
import { ANALYSIS_ID_FIELD, checkAnalysisIds, loadAnalyses, MAX_COMPARE_ANALYSES } from "./compare-analyses";
import { ApiError } from "@/lib/errors";
import type { KeyedContext } from "./handler";
import { idempotencyKeyOf } from "./idempotency";
import { MULTIPART_OVERHEAD_BYTES } from "./multipart";
import { readFilesForm, type FilesForm } from "./multipart-files";
import { reserveUploadBytes } from "./upload-budget";
import { chunkedUploadSink } from "./upload-chunks";

const BYTES_PER_MB = 2 ** 20;
/** Most files one presentation may upload: a bank set is a credit and a dozen documents, rarely more. */
export const MAX_COMPARE_FILES = 20;
/** Cap on all files of one request together (each file also has the MAX_UPLOAD_MB cap). */
export const MAX_COMPARE_TOTAL_MB = 100;
export const PRESENTATION_DATE_FIELD = "presentation_date";
/** The analysis id is the longest text value; a little room so a longer one is refused as malformed, not truncated. */
const MAX_FIELD_LENGTH = 64;
const FIELD_NAMES: ReadonlySet<string> = new Set([PRESENTATION_DATE_FIELD]);
const LIST_NAMES: ReadonlySet<string> = new Set([ANALYSIS_ID_FIELD]);
const FORM_HINT =
  "send multipart/form-data with one file field per document (the credit and the presented documents) or one analysis_id field per stored analysis, and optionally presentation_date (YYYY-MM-DD)";

function todayUtc(): string {
  return new Date().toISOString().slice(0, 10);
}

function presentationDateOf(value: string | undefined): string {
  if (value === undefined) return todayUtc();
  if (!isIsoDate(value.trim())) {
    throw new ApiError("invalid_input", `The ${PRESENTATION_DATE_FIELD} must be a date written YYYY-MM-DD, not "${value}".`);
  }
  return value.trim();
}

/** The compare form as the route reads it: each file streamed into chunked storage as it arrives. */
type UploadedForm = FilesForm<{ upload: StoredUpload }>;
type UploadedFile = UploadedForm["files"][number];

/**
 * Refuses, before any analysis, a file that is empty, not in a format we read,
 * or declared as another of our formats than its bytes are (as analyze and the
 * set uploads refuse it; sniffed as it streamed), naming it.
 */
function checkFileBytes(file: UploadedFile): void {
  try {
    checkSniffedDocument(file.upload, declaredPartType(file.mimeType));
  } catch (error) {
    if (error instanceof AnalysisError) throw new AnalysisError(error.code, `${file.name}: ${error.message}`);
    throw error;
  }
}

/** A compare's Idempotency-Key and the digest of its request, as each of its files' jobs records them. */
interface CompareIdempotency {
  key: string;
  requestHash: string;
}

/** The key a compare's i-th file is recorded under: a compare's key never names an analyze request's job, nor the reverse. */
function fileKeyOf(key: string, index: number): string {
  return `compare:${index}:${key}`;
}

/**
 * What "the same request" means for a compare: the same files (names and
 * bytes, by their SHA-256, worked out as they streamed, in order), analysis
 * ids and presentation date.
 */
function requestHashOf(form: UploadedForm, ids: string[], presentationDate: string): string {
  const hash = createHash("sha256").update(`presentation_date=${presentationDate}\n`);
  for (const id of ids) hash.update(`analysis_id=${id}\n`);
  for (const file of form.files) hash.update(`file=${JSON.stringify(file.name)}:${file.upload.sizeBytes}:sha256=${file.upload.sha256}\n`);
  return hash.digest("hex");
}

/**
 * The jobs an earlier compare with this Idempotency-Key queued for its files
 * (within 24 hours), or undefined when the key is new; the key with another
 * request is refused (422).
 */
async function replayedJobs(db: KeyedContext["db"], organizationId: string, idempotency: CompareIdempotency, files: number): Promise<AnalysisJobRow[] | undefined> {
  const jobs: AnalysisJobRow[] = [];
  try {
    for (let i = 0; i < files; i++) {
      const job = await findIdempotentJob(db, { organizationId, key: fileKeyOf(idempotency.key, i), requestHash: idempotency.requestHash });
      if (!job) return undefined;
      jobs.push(job);
    }
  } catch (error) {
    // The refusal names the key the client sent, not the one its file was recorded under.
    if (error instanceof IdempotencyConflictError) throw new IdempotencyConflictError(idempotency.key);
    throw error;
  }
  return jobs;
}

/**
 * Every file of a compare is an analysis job of the organization, queued in
 * one transaction (admitted together, or refused together: its uploads are
 * received together) and read by the workers in parallel from storage; each
 * is stored like any analysis, with evidence (the examination reads how
 * surely each value was read, as examineFiles does). With an Idempotency-Key
 * each job records it, so a replay finds them; a replay racing the first
 * request loses on the unique index and answers with the first request's jobs.
 */
async function submitFiles(db: KeyedContext["db"], key: KeyedContext["key"], files: UploadedFile[], idempotency?: CompareIdempotency): Promise<AnalysisJobRow[]> {
  if (files.length === 0) return [];
  const inputs = files.map((file, i) => ({
    organizationId: key.organizationId,
    apiKeyId: key.id,
    name: file.name,
    upload: file.upload,
    evidence: true,
    idempotency: idempotency && { key: fileKeyOf(idempotency.key, i), requestHash: idempotency.requestHash },
  }));
  try {
    return await submitAnalyses(db, inputs);
  } catch (error) {
    const raced = idempotency && (await replayedJobs(db, key.organizationId, idempotency, files.length));
    if (raced) return raced;
    throw error;
  }
}

/** Each file's analysis, as its job ends. */
function analyzerOf(db: KeyedContext["db"], organizationId: string, files: UploadedFile[], jobs: AnalysisJobRow[]): AnalyzeFile<UploadedFile> {
  if (files.length === 0) return () => Promise.reject(new Error("no file to analyse"));
  const outcomes = new Map(
    files.map((file, i) => {
      const job = jobs[i]!;
      const outcome = waitForAnalysis(db, { jobId: job.id, organizationId, status: job.status });
      return [file, outcome.then((ended) => ({ result: resultOf(ended), pageText: ended.pageText ?? [] }))] as const;
    }),
  );
  // Every job is waited for, so a refusal of one file never leaves another's promise unobserved.
  for (const outcome of outcomes.values()) outcome.catch(() => undefined);
  return (file) => outcomes.get(file)!;
}

/**
 * A compare of N files counts as N requests against the organization's rate
 * limit (the wrapper charged the first): reading twenty files is twenty
 * analyses' work.
 */
async function chargeFiles(db: KeyedContext["db"], key: KeyedContext["key"], files: number): Promise<void> {
  if (files <= 1) return;
  const limit = await consumeRateLimit(db, { bucket: organizationBucket(key.organizationId, key.kind), limit: limitForKind(key.kind), cost: files - 1 });
  if (!limit.allowed) {
    throw new ApiError(
      "rate_limited",
      `A compare counts each file against the rate limit: ${files} files exceed what this organization's ${key.kind} keys have left; retry after ${limit.retryAfterSeconds} s.`,
      { "retry-after": String(limit.retryAfterSeconds) },
    );
  }
}

/**
 * POST /v1/documents/compare, once the key and the rate limit have passed:
 * receive the files (streamed into chunked storage as they arrive) and the
 * ids of stored analyses, check each file's bytes and load each analysis (the
 * caller's organization only), queue the files' jobs, then examine them as
 * one presentation and return `{ findings, matrix }` exactly as `npm run
 * examine` prints it for the same files. Unreadable files surface as
 * AnalysisError (named by examineFiles) and the wrapper maps them to 415/422.
 */
export async function compareRequest(request: Request, { db, key, jobCounts }: KeyedContext): Promise<Response> {
  const accepted = await acceptFiles(request, { db, key, jobCounts });
  const analyze = analyzerOf(db, key.organizationId, accepted.form.files, accepted.jobs);
  // A presentation the engine cannot examine (ExaminationError) is a 422, as the route wrapper maps it.
  return Response.json(await examineFiles(accepted.form.files, accepted.presentationDate, { analysed: accepted.analysed, analyze }));
}

// Its rate-limit statement also counts the organization's jobs, for the early admission check.
compareRequest.createsJobs = true;

/** A compare's form once its files' jobs are queued, with the stored analyses it names. */
interface AcceptedFiles {
  form: UploadedForm;
  presentationDate: string;
  analysed: Awaited<ReturnType<typeof loadAnalyses>>;
  jobs: AnalysisJobRow[];
}

/**
 * Reads and checks the form and queues its files' jobs (or finds a replay's).
 * The body's bytes count against this process's budget of uploads in flight
 * until then, not while the examination waits. Uploads that no job accepted
 * (the request refused, replayed or failed) are removed before the answer.
 */
async function acceptFiles(request: Request, { db, key, jobCounts }: Pick<KeyedContext, "db" | "key" | "jobCounts">): Promise<AcceptedFiles> {
  const idempotencyKey = idempotencyKeyOf(request);
  // From the counts the rate limit's statement brought (createsJobs).
  await precheckAdmission(db, { organizationId: key.organizationId, counts: jobCounts });
  const release = reserveUploadBytes(request, MAX_COMPARE_TOTAL_MB * BYTES_PER_MB + MULTIPART_OVERHEAD_BYTES);
  // Each job reads its file from storage: twenty small files are never held in memory together.
  const sink = chunkedUploadSink(db, key.organizationId, { holdSmall: false });
  try {
    const form = await readFilesForm(
      request,
      {
        maxFiles: MAX_COMPARE_FILES,
        maxFileBytes: env().MAX_UPLOAD_MB * BYTES_PER_MB,
        maxTotalBytes: MAX_COMPARE_TOTAL_MB * BYTES_PER_MB,
        fieldNames: FIELD_NAMES,
        listNames: LIST_NAMES,
        maxListValues: MAX_COMPARE_ANALYSES,
        maxFieldLength: MAX_FIELD_LENGTH,
      },
      FORM_HINT,
      sink,
    );
    const presentationDate = presentationDateOf(form.fields.get(PRESENTATION_DATE_FIELD));
    const ids = checkAnalysisIds(form.lists.get(ANALYSIS_ID_FIELD) ?? []);
    if (form.files.length === 0 && ids.length === 0) throw new ApiError("invalid_input", `The form has no file and no analysis_id; ${FORM_HINT}.`);
    form.files.forEach(checkFileBytes);
    const idempotency = idempotencyKey ? { key: idempotencyKey, requestHash: requestHashOf(form, ids, presentationDate) } : undefined;
    // A replay is answered from the first request's jobs: nothing is queued or charged again.
    const replayed = idempotency && (await replayedJobs(db, key.organizationId, idempotency, form.files.length));
    if (!replayed) await chargeFiles(db, key, form.files.length);
    // Stored analyses first: a wrong id is refused before any file is read.
    const analysed = await loadAnalyses(db, key.organizationId, ids);
    // Files are analysed as analyze's are: jobs of the analysis service, read in isolated readers
    // (a hostile file is killed at its time or memory cap, 422 naming it); a full queue is 503.
    const jobs = replayed ?? (await submitFiles(db, key, form.files, idempotency));
    return { form, presentationDate, analysed, jobs };
  } finally {
    // Only what no job received goes: a replay's (or a raced request's) own uploads, or a refused request's.
    await sink.discard();
    release();
  }
}
