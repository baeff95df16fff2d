import "server-only";
import type { Db } from "@/db/client";
import { lockOrganizationStorage, sumSetFileBytes } from "@/db/queries/sets-files";
import { ApiError } from "@/lib/errors";
import { consumeRateLimit } from "@/lib/api/rate-limit";
import { env } from "@/lib/env";

const BYTES_PER_MB = 2 ** 20;

function megabytes(bytes: number): string {
  return `${Math.round((bytes / BYTES_PER_MB) * 10) / 10} MB`;
}

/**
 * Web uploads per minute, per person and per organization, on the database's
 * clock as the API's limits are (so every app instance shares them); 429 with
 * Retry-After. The person's bucket is checked first, so one person's refused
 * flood does not spend the rest of the organization's uploads.
 */
export async function limitUploadRate(db: Db, params: { organizationId: string; userId: string }): Promise<void> {
  const config = env();
  const buckets = [
    { bucket: `uploads:user:${params.userId}`, limit: config.UPLOAD_RATE_LIMIT_USER, who: "you" },
    { bucket: `uploads:organization:${params.organizationId}`, limit: config.UPLOAD_RATE_LIMIT_ORGANIZATION, who: "your organization" },
  ];
  for (const { bucket, limit, who } of buckets) {
    const result = await consumeRateLimit(db, { bucket, limit });
    if (!result.allowed) {
      throw new ApiError(
        "rate_limited",
        `Too many uploads: ${who} may upload ${limit} files per minute; retry after ${result.retryAfterSeconds} s.`,
        { "retry-after": String(result.retryAfterSeconds) },
      );
    }
  }
}

function quotaExceeded(usedBytes: number, quotaBytes: number): ApiError {
  return new ApiError(
    "payload_too_large",
    `Your organization's storage quota of ${megabytes(quotaBytes)} is full (${megabytes(usedBytes)} used); delete sets you no longer need, or ask the operator for more.`,
  );
}

function quotaBytes(): number {
  return env().STORAGE_QUOTA_MB * BYTES_PER_MB;
}

/**
 * Refuses (413), before the body is read, an upload whose declared length
 * cannot fit the organization's storage quota. Advisory only: the upload's
 * own transaction decides for good (reserveStorage).
 */
export async function precheckStorage(db: Db, params: { organizationId: string; declaredBytes: number }): Promise<void> {
  const used = await sumSetFileBytes(db, params);
  if (used + params.declaredBytes > quotaBytes()) throw quotaExceeded(used, quotaBytes());
}

/**
 * Inside the transaction that stores the file: the organization's uploads are
 * counted one at a time (a lock), so two at once cannot both take its last
 * free bytes; 413 when the file does not fit.
 */
export async function reserveStorage(tx: Db, params: { organizationId: string; bytes: number }): Promise<void> {
  await lockOrganizationStorage(tx, params);
  const used = await sumSetFileBytes(tx, params);
  if (used + params.bytes > quotaBytes()) throw quotaExceeded(used, quotaBytes());
}
