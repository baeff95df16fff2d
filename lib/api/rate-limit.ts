import type { Db } from "@/db/client";
import type { JobCounts, JobCountsQuery } from "@/db/queries/job-counts";
import { admitToRateLimitBucket } from "@/db/queries/rate-limits";
import type { ApiKeyKind } from "@/db/schema";
import { env } from "@/lib/env";

export const DEFAULT_WINDOW_SECONDS = 60;
const MICROS_PER_SECOND = 1_000_000;
const BUCKET_MAX_LENGTH = 200;
/** Policy names go inside a structured-field string; keep them to tokens that need no escaping. */
const POLICY_NAME_PATTERN = /^[A-Za-z0-9_.-]{1,64}$/;

export interface RateLimitResult {
  allowed: boolean;
  limit: number;
  /** Requests still allowed right now after this one. */
  remaining: number;
  /** Seconds until the bucket is full again. */
  resetSeconds: number;
  /** Seconds to wait before retrying; 0 when allowed, at least 1 when refused. */
  retryAfterSeconds: number;
  windowSeconds: number;
  /** The organization's unfinished jobs, when asked for (counted by the same statement). */
  jobCounts?: JobCounts;
}

/** Requests per minute that an organization's keys of this kind share. */
export function limitForKind(kind: ApiKeyKind): number {
  const { RATE_LIMIT_PRODUCTION, RATE_LIMIT_SANDBOX } = env();
  return kind === "production" ? RATE_LIMIT_PRODUCTION : RATE_LIMIT_SANDBOX;
}

/** One bucket per organization and key kind: issuing more keys does not buy more throughput. */
export function organizationBucket(organizationId: string, kind: ApiKeyKind): string {
  return `organization:${organizationId}:${kind}`;
}

/**
 * GCRA with burst = limit: each request pushes the bucket's theoretical arrival
 * time (TAT) forward by one emission interval T = window / limit, and is refused
 * when that would put TAT more than limit × T ahead of now. The decision is one
 * upsert on the database clock, so any number of app processes share the limit
 * exactly and skewed app clocks do not matter.
 */
export async function consumeRateLimit(
  db: Db,
  /**
   * `cost`: requests this one counts for (a compare counts each of its files); 1 by default.
   * `jobCounts`: also count these unfinished jobs in the same statement (a request that queues jobs).
   */
  params: { bucket: string; limit: number; windowSeconds?: number; cost?: number; jobCounts?: JobCountsQuery },
): Promise<RateLimitResult> {
  const { bucket, limit, windowSeconds = DEFAULT_WINDOW_SECONDS, cost = 1 } = params;
  validate(bucket, limit, windowSeconds);
  // Whole microseconds, rounded down, and the tolerance an exact multiple, so
  // `limit` back-to-back requests always fit and request limit + 1 never does.
  const intervalMicros = Math.floor((windowSeconds * MICROS_PER_SECOND) / limit);
  const toleranceMicros = intervalMicros * limit;
  const row = await admitToRateLimitBucket(db, { bucket, intervalMicros: intervalMicros * cost, toleranceMicros, jobCounts: params.jobCounts });

  // A refusal whose bucket row is not yet visible to this snapshot can only be a
  // full bucket created concurrently: treat it as exactly full.
  const aheadMicros = Math.max(0, row.aheadMicros ?? toleranceMicros);
  const base = { limit, windowSeconds, resetSeconds: Math.ceil(aheadMicros / MICROS_PER_SECOND), ...(row.jobCounts && { jobCounts: row.jobCounts }) };
  if (row.allowed) {
    const remaining = Math.floor((toleranceMicros - aheadMicros) / intervalMicros);
    return { ...base, allowed: true, remaining: Math.max(0, remaining), retryAfterSeconds: 0 };
  }
  // The next request fits once TAT + T - now <= tolerance.
  const waitMicros = aheadMicros + intervalMicros - toleranceMicros;
  return { ...base, allowed: false, remaining: 0, retryAfterSeconds: Math.max(1, Math.ceil(waitMicros / MICROS_PER_SECOND)) };
}

/**
 * Response headers from draft-ietf-httpapi-ratelimit-headers: `RateLimit-Policy`
 * and `RateLimit` on every response, `Retry-After` (whole seconds) on refusal.
 */
export function rateLimitHeaders(result: RateLimitResult, policyName: string): Record<string, string> {
  if (!POLICY_NAME_PATTERN.test(policyName)) {
    throw new RangeError(`rate limit policy name must match ${POLICY_NAME_PATTERN}`);
  }
  const headers: Record<string, string> = {
    "RateLimit-Policy": `"${policyName}";q=${result.limit};w=${result.windowSeconds}`,
    RateLimit: `"${policyName}";r=${result.remaining};t=${result.resetSeconds}`,
  };
  if (!result.allowed) headers["Retry-After"] = String(result.retryAfterSeconds);
  return headers;
}

function validate(bucket: string, limit: number, windowSeconds: number): void {
  if (bucket.length === 0 || bucket.length > BUCKET_MAX_LENGTH) {
    throw new RangeError(`rate limit bucket must be 1 to ${BUCKET_MAX_LENGTH} characters`);
  }
  if (!Number.isInteger(limit) || limit < 1) throw new RangeError("rate limit must be a positive integer");
  if (!Number.isInteger(windowSeconds) || windowSeconds < 1) {
    throw new RangeError("rate limit window must be a positive whole number of seconds");
  }
  if (limit > windowSeconds * MICROS_PER_SECOND) throw new RangeError("rate limit exceeds one request per microsecond");
}
