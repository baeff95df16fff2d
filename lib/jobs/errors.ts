/**
 * The organization already has as many analyses waiting or running as it may
 * (ANALYSIS_ORG_MAX_JOBS): the API answers 429 with Retry-After, so that one
 * organization's flood never holds every reader.
 */
export class OrganizationBusyError extends Error {
  constructor(
    readonly limit: number,
    readonly retryAfterSeconds: number,
  ) {
    super(`This organization already has ${limit} documents waiting or being read; retry after ${retryAfterSeconds} s.`);
    this.name = "OrganizationBusyError";
  }
}

/** An Idempotency-Key already used, within 24 hours, for another request: 422. */
export class IdempotencyConflictError extends Error {
  constructor(readonly key: string) {
    super(`The Idempotency-Key "${key}" was already used for a different request in the last 24 hours; use a new key for a new request.`);
    this.name = "IdempotencyConflictError";
  }
}

/** A job ended failed for a reason that is not the file's (its worker died at every attempt, storage lost). */
export class AnalysisJobError extends Error {
  constructor(readonly jobId: string, detail: string) {
    super(`analysis job ${jobId} failed: ${detail}`);
    this.name = "AnalysisJobError";
  }
}
