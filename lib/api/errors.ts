import "server-only";
import { AnalysisError } from "@/lib/analysis";
import { QueueFullError } from "@/lib/readers/queue-full-error";
import { IdempotencyConflictError, OrganizationBusyError } from "@/lib/jobs/errors";
import { logError } from "@/lib/log";

/**
 * The one error type of the public API. `detail` is written for the caller
 * (what was wrong and how to fix it) and becomes the whole 4XX body.
 */
export type ApiErrorCode =
  | "bad_request"
  | "unauthorized"
  | "not_found"
  | "payload_too_large"
  | "unsupported_media_type"
  | "unprocessable"
  | "rate_limited"
  | "internal"
  | "unavailable";

export const STATUS_BY_CODE: Record<ApiErrorCode, number> = {
  bad_request: 400,
  unauthorized: 401,
  not_found: 404,
  payload_too_large: 413,
  unsupported_media_type: 415,
  unprocessable: 422,
  rate_limited: 429,
  internal: 500,
  unavailable: 503,
};

export class ApiError extends Error {
  readonly code: ApiErrorCode;
  readonly status: number;
  /** Extra response headers (e.g. Retry-After on 429). */
  readonly headers: Record<string, string>;

  constructor(code: ApiErrorCode, detail: string, headers: Record<string, string> = {}) {
    super(detail);
    this.name = "ApiError";
    this.code = code;
    this.status = STATUS_BY_CODE[code];
    this.headers = headers;
  }
}

/** The engine's refusals: a format it cannot read is 415, every other refusal 422. */
export function apiErrorOfAnalysis(error: AnalysisError): ApiError {
  const code: ApiErrorCode = error.code === "unsupported_format" ? "unsupported_media_type" : "unprocessable";
  return new ApiError(code, error.message);
}

/** Every document reader busy and the queue full: 503 with Retry-After, so the caller comes back rather than piling up. */
export function apiErrorOfQueueFull(error: QueueFullError): ApiError {
  return new ApiError(
    "unavailable",
    `The server is reading as many documents as it can and its queue is full; retry after ${error.retryAfterSeconds} s.`,
    { "retry-after": String(error.retryAfterSeconds) },
  );
}

/** The organization's own analyses fill its share: 429 with Retry-After; other organizations are still served. */
export function apiErrorOfOrganizationBusy(error: OrganizationBusyError): ApiError {
  return new ApiError("rate_limited", error.message, { "retry-after": String(error.retryAfterSeconds) });
}

/** The JSON body every error carries: `{"detail": "…"}`, nothing else. */
export function errorResponse(status: number, detail: string, headers: Record<string, string> = {}): Response {
  return Response.json({ detail }, { status, headers });
}

/**
 * Turns anything thrown while serving a request into a response. Known errors
 * keep their detail; anything else is logged with the request id and answered
 * with a 500 that names only that id, never a stack trace or SQL.
 */
export function responseOfError(error: unknown, requestId: string): Response {
  const known =
    error instanceof AnalysisError
      ? apiErrorOfAnalysis(error)
      : error instanceof QueueFullError
        ? apiErrorOfQueueFull(error)
        : error instanceof OrganizationBusyError
          ? apiErrorOfOrganizationBusy(error)
          : error instanceof IdempotencyConflictError
            ? new ApiError("unprocessable", error.message)
            : error;
  // 4XX and 503 are answers about the request or the server's load, said in words; any other 5XX is a fault.
  if (known instanceof ApiError && (known.status < 500 || known.code === "unavailable")) {
    return errorResponse(known.status, known.message, known.headers);
  }
  logError(`[request ${requestId}] internal error`, error);
  return errorResponse(500, `Internal error (request id ${requestId}).`);
}
