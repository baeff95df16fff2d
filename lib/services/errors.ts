/**
 * Why a service refused. The API maps codes to statuses (invalid_input → 400,
 * forbidden → 403, not_found → 404, conflict → 409); `message` is written for
 * the caller and never carries SQL or secrets.
 */
export type ServiceErrorCode = "invalid_input" | "forbidden" | "not_found" | "conflict";

export class ServiceError extends Error {
  constructor(
    readonly code: ServiceErrorCode,
    message: string,
  ) {
    super(message);
    this.name = "ServiceError";
  }
}

/** PostgreSQL's unique_violation, from either driver and through drizzle's error wrapper. */
export function isUniqueViolation(error: unknown): boolean {
  for (let current = error; current instanceof Error; current = current.cause) {
    if ((current as { code?: unknown }).code === "23505") return true;
  }
  return false;
}
