/**
 * The one error vocabulary of every route: services, the set routes and the
 * public API throw an ApiError with a code, and this table alone says which
 * HTTP status each code is. `message` is the `detail` the caller reads (what
 * was wrong and how to fix it), never SQL, a stack trace or a secret.
 */
export type ErrorCode =
  | "invalid_input"
  | "unauthorized"
  | "forbidden"
  | "not_found"
  | "conflict"
  | "payload_too_large"
  | "unsupported_media_type"
  | "unprocessable"
  | "rate_limited"
  | "internal"
  | "unavailable";

export const STATUS_BY_CODE: Record<ErrorCode, number> = {
  invalid_input: 400,
  unauthorized: 401,
  forbidden: 403,
  not_found: 404,
  conflict: 409,
  payload_too_large: 413,
  unsupported_media_type: 415,
  unprocessable: 422,
  rate_limited: 429,
  internal: 500,
  unavailable: 503,
};

export class ApiError extends Error {
  readonly code: ErrorCode;
  readonly status: number;
  /** Extra response headers (e.g. Retry-After on 429). */
  readonly headers: Record<string, string>;

  constructor(code: ErrorCode, detail: string, headers: Record<string, string> = {}) {
    super(detail);
    this.name = "ApiError";
    this.code = code;
    this.status = STATUS_BY_CODE[code];
    this.headers = headers;
  }
}
