import "server-only";
import type { Db } from "@/db/client";
import type { JobCounts } from "@/db/queries/job-counts";
import { env } from "@/lib/env";
import { UNKNOWN_ADDRESS, clientIpOf } from "@/lib/auth/client-ip";
import { verifyApiKeyFrom, type VerifiedApiKey, type VerifyFailureReason } from "@/lib/keys";
import { ApiError } from "@/lib/errors";
import { type Authenticate, withRoute } from "@/lib/http/route";
import { consumeRateLimit, DEFAULT_WINDOW_SECONDS, limitForKind, organizationBucket, rateLimitHeaders } from "./rate-limit";

const API_KEY_HEADER = "x-api-key";

export interface KeyedContext {
  db: Db;
  key: VerifiedApiKey;
  requestId: string;
  /** For a handler that creates jobs: its organization's unfinished jobs, counted by the rate limit's statement (precheckAdmission decides from them). */
  jobCounts?: JobCounts;
}

/** `createsJobs`: the handler queues analysis jobs, so its rate-limit statement also counts the organization's (KeyedContext.jobCounts). */
export type KeyedHandler = ((request: Request, context: KeyedContext) => Promise<Response>) & { createsJobs?: boolean };

export interface HandlerDeps {
  /** The database (the route passes the process-wide one; tests pass their own). */
  openDb: () => Promise<Db>;
  /** The clock keys are checked against (tests move it instead of waiting). */
  now?: () => Date;
}

/**
 * Unknown, revoked and malformed keys share one answer so a caller cannot
 * probe which keys exist; only a missing header and an expired sandbox key
 * (which its holder needs to know to renew) say more.
 */
const INVALID_KEY_DETAIL = `Invalid API key: check the ${API_KEY_HEADER} header, or ask the operator for a new key.`;
export const UNAUTHORIZED_DETAILS: Record<VerifyFailureReason, string> = {
  missing: `Missing API key: send your key in the ${API_KEY_HEADER} header.`,
  malformed: INVALID_KEY_DETAIL,
  unknown: INVALID_KEY_DETAIL,
  revoked: INVALID_KEY_DETAIL,
  expired: "This sandbox API key has expired (sandbox keys last 28 days): ask the operator for a new key.",
};

/**
 * The keyed API's caller, in this order: key (revocation and expiry included;
 * failed look-ups throttled per client address) → rate limit. Every answer
 * to a valid key carries the RateLimit and RateLimit-Policy headers. For a
 * route that creates jobs, the rate limit's statement also counts the
 * organization's jobs, so the route's early admission check costs no round trip.
 */
function authenticateKey(deps: HandlerDeps, createsJobs: boolean): Authenticate<Omit<KeyedContext, "requestId">> {
  return async (request, response) => {
    const db = await deps.openDb();
    const address = clientIpOf(request.headers);
    const verified = await verifyApiKeyFrom(db, request.headers.get(API_KEY_HEADER), address === UNKNOWN_ADDRESS ? null : address, { now: deps.now?.() });
    if (!verified.ok && verified.reason === "throttled") {
      throw new ApiError(
        "rate_limited",
        `Too many requests with an invalid API key from this address; retry after ${verified.retryAfterSeconds} s.`,
        { "Retry-After": String(verified.retryAfterSeconds) },
      );
    }
    if (!verified.ok) throw new ApiError("unauthorized", UNAUTHORIZED_DETAILS[verified.reason]);
    const { key } = verified;
    // One bucket per organization and key kind: issuing more keys does not buy more throughput.
    const limit = await consumeRateLimit(db, {
      bucket: organizationBucket(key.organizationId, key.kind),
      limit: limitForKind(key.kind),
      windowSeconds: DEFAULT_WINDOW_SECONDS,
      jobCounts: createsJobs ? { organizationId: key.organizationId, queueName: env().ANALYSIS_QUEUE_NAME } : undefined,
    });
    for (const [name, value] of Object.entries(rateLimitHeaders(limit, key.kind))) response.headers.set(name, value);
    if (!limit.allowed) {
      throw new ApiError(
        "rate_limited",
        `Rate limit of ${limit.limit} requests per ${limit.windowSeconds} s exceeded for this organization's ${key.kind} keys; retry after ${limit.retryAfterSeconds} s.`,
      );
    }
    return { db, key, jobCounts: limit.jobCounts };
  };
}

/** The wrapper of every keyed API route (lib/http/route, authenticated by API key). */
export function withApiKey(handle: KeyedHandler, deps: HandlerDeps): (request: Request) => Promise<Response> {
  return withRoute(authenticateKey(deps, handle.createsJobs === true), (caller) => caller.key.organizationId)(handle);
}
