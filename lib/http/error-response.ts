import "server-only";
import { AnalysisError, ExaminationError } from "@/lib/analysis";
import { ApiError } from "@/lib/errors";
import { IdempotencyConflictError, OrganizationBusyError } from "@/lib/jobs/errors";
import { logError } from "@/lib/log";
import { QueueFullError } from "@/lib/readers/queue-full-error";

export const REQUEST_ID_HEADER = "x-request-id";

/**
 * The errors of the layers below the routes, in the routes' vocabulary: the
 * engine's refusals (a format it cannot read is 415, every other refusal and
 * an examination it cannot make 422), a full reader queue (503), an
 * organization over its share (429) and a reused Idempotency-Key (422).
 * Anything else is returned as it is.
 */
function apiErrorOf(error: unknown): unknown {
  if (error instanceof AnalysisError) return new ApiError(error.code === "unsupported_format" ? "unsupported_media_type" : "unprocessable", error.message);
  if (error instanceof ExaminationError) return new ApiError("unprocessable", error.message);
  if (error instanceof QueueFullError) {
    // Every reader busy: 503 with Retry-After, so the caller comes back rather than piling up.
    return new ApiError(
      "unavailable",
      `The server is reading as many documents as it can and its queue is full; retry after ${error.retryAfterSeconds} s.`,
      { "retry-after": String(error.retryAfterSeconds) },
    );
  }
  // The organization's own analyses fill its share; other organizations are still served.
  if (error instanceof OrganizationBusyError) return new ApiError("rate_limited", error.message, { "retry-after": String(error.retryAfterSeconds) });
  if (error instanceof IdempotencyConflictError) return new ApiError("unprocessable", error.message);
  return error;
}

/**
 * Turns anything thrown while serving a request into a response. Known errors
 * keep their detail; anything else is logged with the request id and answered
 * with a 500 that names only that id, never a stack trace or SQL.
 */
export function responseOfError(error: unknown, requestId: string): Response {
  const known = apiErrorOf(error);
  // 4XX and 503 are answers about the request or the server's load, said in words; any other 5XX is a fault.
  if (known instanceof ApiError && (known.status < 500 || known.code === "unavailable")) {
    // The JSON body every error carries: `{"detail": "…"}`, nothing else.
    return Response.json({ detail: known.message }, { status: known.status, headers: known.headers });
  }
  logError(`[request ${requestId}] internal error`, error);
  return Response.json({ detail: `Internal error (request id ${requestId}).` }, { status: 500 });
}
