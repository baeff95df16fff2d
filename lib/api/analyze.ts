import "server-only";
import { createHash } from "node:crypto";
import { env } from "@/lib/env";
import { declaredPartType, findIdempotentJob, precheckAdmission, resultOf, submitOnce, waitForAnalysis, type DeclaredType, type StoredUpload } from "@/lib/jobs";
import { analysisLocation, analysisStatusBody } from "./analysis-status";
import { ApiError } from "@/lib/errors";
import { idempotencyKeyOf } from "./idempotency";
import type { KeyedContext } from "./handler";
import { MULTIPART_OVERHEAD_BYTES, readAnalyzeForm, type AnalyzeInput, type FileSink } from "./multipart";
import { reserveBytesInFlight, reserveUploadBytes } from "./upload-budget";
import { chunkedUploadSink } from "./upload-chunks";
import type { AnalysisJobRow } from "@/db/schema";
import { ANALYSIS_ID_HEADER } from "./openapi";
import { checkCallbackUrl, fetchDocument, OPAQUE_CONTENT_TYPE } from "./url-fetch";
import { findWebhookSecret } from "@/db/queries/webhooks";

const BYTES_PER_MB = 2 ** 20;
const EVIDENCE_VALUES: Record<string, boolean> = { true: true, false: false };
/** RFC 7240: the client prefers an immediate 202 to waiting for the analysis. */
const RESPOND_ASYNC = /(^|[,;\s])respond-async($|[,;\s])/i;

/** A file or a fetched url's document, streamed into chunked storage as it arrived. */
interface IncomingDocument {
  name: string;
  /** What the sender said it is, when that says anything (checked against the bytes). */
  declared?: DeclaredType;
  upload: StoredUpload;
}

/** The analyze form as the route reads it: a file is streamed into chunked storage as it arrives. */
type UploadedInput = AnalyzeInput<{ upload: StoredUpload }>;

function evidenceOption(request: Request): boolean {
  const value = new URL(request.url).searchParams.get("evidence");
  if (value === null) return false;
  const flag = EVIDENCE_VALUES[value];
  if (flag === undefined) throw new ApiError("invalid_input", `The evidence parameter must be true or false, not "${value}".`);
  return flag;
}

/**
 * What "the same request" means for an Idempotency-Key: the same file (name
 * and bytes, by their SHA-256, worked out as they streamed) or url, the same
 * evidence option and callback_url.
 */
function requestHashOf(input: UploadedInput, evidence: boolean): string {
  const hash = createHash("sha256").update(`evidence=${evidence}\n`);
  if (input.callbackUrl !== undefined) hash.update(`callback_url=${input.callbackUrl}\n`);
  if (input.kind === "url") hash.update(`url=${input.url}`);
  else hash.update(`file=${input.name}\nsha256=${input.upload.sha256}`);
  return hash.digest("hex");
}

/**
 * The file as the form streamed it, or the url's document streamed into the
 * same sink (chunked storage) as it is fetched. `reserve` takes a fetched
 * document's bytes from the budget of upload bytes in flight, as an upload's are.
 */
async function receiveDocument(input: UploadedInput, sink: FileSink<{ upload: StoredUpload }>, reserve: (bytes: number) => void): Promise<IncomingDocument> {
  const { MAX_UPLOAD_MB, URL_FETCH_TIMEOUT_MS, URL_MAX_REDIRECTS } = env();
  const maxBytes = MAX_UPLOAD_MB * BYTES_PER_MB;
  if (input.kind === "file") return { name: input.name, upload: input.upload, declared: declaredPartType(input.mimeType) };
  const fetched = await fetchDocument(input.url, { maxBytes, timeoutMs: URL_FETCH_TIMEOUT_MS, maxRedirects: URL_MAX_REDIRECTS, reserve }, (body) => sink.receive(body));
  const type = fetched.declaredType;
  return { name: fetched.name, upload: fetched.stored.upload, declared: type && type !== OPAQUE_CONTENT_TYPE ? { type, by: "url" } : undefined };
}

/** A callback_url is posted to only with a signature the receiver can check: the organization must have a webhook secret. */
async function checkCallback(db: KeyedContext["db"], organizationId: string, text: string): Promise<string> {
  const url = checkCallbackUrl(text);
  if (!(await findWebhookSecret(db, { organizationId }))) {
    throw new ApiError("invalid_input", "A callback_url needs the organization's webhook secret to sign with: an admin creates it in the web app (Admin → Webhooks).");
  }
  return url;
}

/**
 * POST /v1/documents/analyze, once the key and the rate limit have passed:
 * receive the file or fetch the url, hand it to the analysis service (checked,
 * admitted, queued as a job, read by a worker and stored), then either wait
 * for the job and return the engine's array as is, or — `Prefer:
 * respond-async` — answer 202 at once with where to find it. An
 * Idempotency-Key seen in the last 24 hours with the same request answers
 * with that request's analysis; with another request, 422.
 */
export async function analyzeRequest(request: Request, context: KeyedContext): Promise<Response> {
  const { db, key } = context;
  const respondAsync = RESPOND_ASYNC.test(request.headers.get("prefer") ?? "");
  const job = await acceptRequest(request, context);
  if (respondAsync) {
    return Response.json(analysisStatusBody(job), {
      status: 202,
      headers: { location: analysisLocation(job.id), [ANALYSIS_ID_HEADER]: job.id, "retry-after": "1" },
    });
  }
  const result = resultOf(await waitForAnalysis(db, { jobId: job.id, organizationId: key.organizationId, status: job.status }));
  // The body stays the engine's array; the stored analysis is named beside it, for compare's analysis_id.
  return Response.json(result, { headers: { [ANALYSIS_ID_HEADER]: job.id } });
}

// Its rate-limit statement also counts the organization's jobs, for the early admission check.
analyzeRequest.createsJobs = true;

/**
 * Reads the request and makes it a job (or finds the job its Idempotency-Key
 * names). A file, or the document fetched for a url, streams into chunked
 * storage as it arrives (a chunk at a time in memory), under this process's
 * budget of upload bytes in flight until its job is queued, so a synchronous
 * call waiting for its analysis no longer holds it. An upload that no job
 * accepted (refused, replayed, failed) is removed before the answer.
 */
async function acceptRequest(request: Request, { db, key, jobCounts }: KeyedContext): Promise<AnalysisJobRow> {
  const evidence = evidenceOption(request);
  const idempotencyKey = idempotencyKeyOf(request);
  const scope = { organizationId: key.organizationId };
  // Room for one more job is checked before the body is read (its Content-Length was checked first),
  // from the counts the rate limit's statement brought (createsJobs).
  await precheckAdmission(db, { ...scope, counts: jobCounts });
  const maxFileBytes = env().MAX_UPLOAD_MB * BYTES_PER_MB;
  const releases = [reserveUploadBytes(request, maxFileBytes + MULTIPART_OVERHEAD_BYTES)];
  // A url's form is read and small by the time its document is fetched: the document's bytes take its place.
  const reserve = (bytes: number) => {
    for (const release of releases.splice(0)) release();
    releases.push(reserveBytesInFlight(bytes));
  };
  const sink = chunkedUploadSink(db, key.organizationId);
  let accepted = false;
  try {
    const input = await readAnalyzeForm(request, maxFileBytes, sink);
    const callbackUrl = input.callbackUrl === undefined ? undefined : await checkCallback(db, key.organizationId, input.callbackUrl);
    const idempotency = idempotencyKey ? { key: idempotencyKey, requestHash: requestHashOf(input, evidence) } : undefined;
    // A replay is answered from the first request's job, without fetching or storing anything again.
    const replayed = idempotency && (await findIdempotentJob(db, { ...scope, ...idempotency }));
    if (replayed) return replayed;
    const document = await receiveDocument(input, sink, reserve);
    const job = await submitOnce(db, { ...scope, ...document, apiKeyId: key.id, evidence, idempotency, callbackUrl });
    // A replay racing the first request gets the first request's job: its own upload is not that job's.
    accepted = job.storageKey === document.upload.storageKey;
    return job;
  } finally {
    if (!accepted) await sink.discard();
    for (const release of releases) release();
  }
}
