import "server-only";
import { env } from "@/lib/env";
import { declaredPartType, resultOf, submitAnalyses, waitForAnalysis, type DeclaredType } from "@/lib/jobs";
import { ApiError } from "./errors";
import type { KeyedContext } from "./handler";
import { readAnalyzeForm } from "./multipart";
import { ANALYSIS_ID_HEADER } from "./openapi";
import { fetchDocument, OPAQUE_CONTENT_TYPE } from "./url-fetch";

const BYTES_PER_MB = 2 ** 20;
const EVIDENCE_VALUES: Record<string, boolean> = { true: true, false: false };

interface IncomingDocument {
  name: string;
  bytes: Uint8Array;
  /** What the sender said it is, when that says anything (checked against the bytes). */
  declared?: DeclaredType;
}

function evidenceOption(request: Request): boolean {
  const value = new URL(request.url).searchParams.get("evidence");
  if (value === null) return false;
  const flag = EVIDENCE_VALUES[value];
  if (flag === undefined) throw new ApiError("bad_request", `The evidence parameter must be true or false, not "${value}".`);
  return flag;
}

async function receiveDocument(request: Request): Promise<IncomingDocument> {
  const { MAX_UPLOAD_MB, URL_FETCH_TIMEOUT_MS, URL_MAX_REDIRECTS } = env();
  const maxBytes = MAX_UPLOAD_MB * BYTES_PER_MB;
  const input = await readAnalyzeForm(request, maxBytes);
  if (input.kind === "file") return { name: input.name, bytes: input.bytes, declared: declaredPartType(input.mimeType) };
  const fetched = await fetchDocument(input.url, { maxBytes, timeoutMs: URL_FETCH_TIMEOUT_MS, maxRedirects: URL_MAX_REDIRECTS });
  const type = fetched.declaredType;
  return { name: fetched.name, bytes: fetched.bytes, declared: type && type !== OPAQUE_CONTENT_TYPE ? { type, by: "url" } : undefined };
}

/**
 * POST /v1/documents/analyze, once the key and the rate limit have passed:
 * receive the file or fetch the url, hand it to the analysis service (checked,
 * admitted, queued as a job, read by a worker and stored), wait for the job
 * and return the engine's array as is.
 */
export async function analyzeRequest(request: Request, { db, key }: KeyedContext): Promise<Response> {
  const evidence = evidenceOption(request);
  const document = await receiveDocument(request);
  const [job] = await submitAnalyses(db, [
    { organizationId: key.organizationId, apiKeyId: key.id, name: document.name, bytes: document.bytes, declared: document.declared, evidence },
  ]);
  const result = resultOf(await waitForAnalysis(db, { jobId: job!.id, organizationId: key.organizationId }));
  // The body stays the engine's array; the stored analysis is named beside it, for compare's analysis_id.
  return Response.json(result, { headers: { [ANALYSIS_ID_HEADER]: job!.id } });
}
