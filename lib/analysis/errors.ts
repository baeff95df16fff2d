/**
 * Why the engine refused an input. The API maps each code to an HTTP status
 * (unsupported_format → 415, every other code → 422); `message` is written for
 * the caller and never carries internals.
 */
export type AnalysisErrorCode =
  | "unsupported_format"
  | "unreadable"
  | "encrypted"
  | "empty"
  | "limit_exceeded"
  | "timeout";

export class AnalysisError extends Error {
  readonly code: AnalysisErrorCode;
  /** 1-based page (or part) that failed, when one did. */
  readonly page?: number;

  constructor(code: AnalysisErrorCode, message: string, page?: number) {
    super(message);
    this.name = "AnalysisError";
    this.code = code;
    this.page = page;
  }
}
