import type { Db } from "@/db/client";
import { rateLimitBucketAheadMicros } from "@/db/queries/rate-limits";
import { consumeRateLimit } from "@/lib/api/rate-limit";
import { verifyApiKey, type VerifyApiKeyResult } from "./verify";

/**
 * A key with a valid checksum costs a database look-up. Guessing one is
 * hopeless (256 random bits), but an unthrottled stream of them is free load
 * and a free oracle, so each client address may fail FAILED_LOOKUPS.limit
 * look-ups per window; beyond that its look-ups are refused (429) before the
 * database is asked, whether or not the guess would have matched (20 a
 * minute: a client with a mistyped key sees 401s long before any 429). Successful
 * look-ups spend nothing: a busy client with a good key is never slowed here.
 */
export interface FailedLookupPolicy {
  limit: number;
  windowSeconds: number;
}

export const FAILED_LOOKUPS: FailedLookupPolicy = { limit: 20, windowSeconds: 60 };
const MICROS_PER_SECOND = 1_000_000;

export type AddressedVerifyResult = VerifyApiKeyResult | { ok: false; reason: "throttled"; retryAfterSeconds: number };

/**
 * verifyApiKey for a request from `clientAddress`. An address of null (no
 * socket hook ran: the route was called in-process, as tests do) is not
 * throttled; under `next start` every request has one.
 */
export async function verifyApiKeyFrom(
  db: Db,
  presented: string | null | undefined,
  clientAddress: string | null,
  options: { now?: Date; policy?: FailedLookupPolicy } = {},
): Promise<AddressedVerifyResult> {
  const { now, policy = FAILED_LOOKUPS } = options;
  const bucket = clientAddress ? `key-miss:${clientAddress}` : null;
  // Missing and malformed keys are refused without a query: only look-ups are counted.
  if (bucket && presented) {
    const wait = await secondsUntilNextLookup(db, bucket, policy);
    if (wait > 0) return { ok: false, reason: "throttled", retryAfterSeconds: wait };
  }
  const result = await verifyApiKey(db, presented, now);
  if (bucket && !result.ok && result.reason !== "missing" && result.reason !== "malformed") {
    await consumeRateLimit(db, { bucket, limit: policy.limit, windowSeconds: policy.windowSeconds });
  }
  return result;
}

/**
 * Reads the address's GCRA bucket without spending from it (the same
 * arithmetic as consumeRateLimit): 0 when one more failure would still fit.
 */
async function secondsUntilNextLookup(db: Db, bucket: string, policy: FailedLookupPolicy): Promise<number> {
  const intervalMicros = Math.floor((policy.windowSeconds * MICROS_PER_SECOND) / policy.limit);
  const toleranceMicros = intervalMicros * policy.limit;
  const aheadMicros = await rateLimitBucketAheadMicros(db, { bucket });
  const waitMicros = (aheadMicros ?? 0) + intervalMicros - toleranceMicros;
  return waitMicros > 0 ? Math.max(1, Math.ceil(waitMicros / MICROS_PER_SECOND)) : 0;
}
