import "server-only";
import type { Db } from "@/db/client";
import { hasRecentSignInAddress, upsertSignInAddress } from "@/db/queries/sign-in-addresses";
import { consumeRateLimit } from "@/lib/api/rate-limit";

/**
 * Sign-in throttling (ASVS 6.1.1, 6.3.1): GCRA buckets on the database clock.
 * Spent tokens come back one per window/limit, so refusals slow an attacker
 * to a trickle with no permanent lock-out.
 * - Per account AND address: guessing one account's password from one place.
 *   A stranger's failures fill their own bucket, never the owner's.
 * - Per address: spraying many accounts (or many guesses) from one place.
 * - Per account, for addresses the account never signed in from: guessing one
 *   account's password from many places (a botnet, where each address stays
 *   under its own buckets). Addresses the owner has signed in from are exempt,
 *   so a stranger who drains this bucket slows only other strangers (and the
 *   owner on a new network), never the owner where they usually sign in.
 * The address is the socket's (see ./client-ip), so a forged
 * X-Forwarded-For buys no fresh buckets.
 */
export interface LoginThrottlePolicy {
  accountLimit: number;
  ipLimit: number;
  /** Attempts on one account from all addresses it never signed in from, together. */
  accountWideLimit: number;
  windowSeconds: number;
}

export const LOGIN_THROTTLE: LoginThrottlePolicy = {
  /** 10 attempts per account and address per 15 minutes, then one more every 90 s. */
  accountLimit: 10,
  /** An office behind one NAT address signs in often; a spraying attacker tries many accounts. */
  ipLimit: 50,
  /** 30 per 15 minutes from unknown places: 2 a minute, far below what guessing needs. */
  accountWideLimit: 30,
  windowSeconds: 15 * 60,
};

/** How long an address stays known to an account after its last successful sign-in from it. */
const KNOWN_ADDRESS_DAYS = 90;

/**
 * Spends one attempt of `email` from `ip`; the seconds to wait when any bucket
 * refuses, else null. `userId` is the account's, when it exists: only then can
 * the address be known to it (an unknown e-mail is always "not known", which
 * tells nothing, since any address is unknown to most accounts).
 */
export async function consumeLoginAttempt(
  db: Db,
  input: { email: string; ip: string; userId: string | undefined },
  policy: LoginThrottlePolicy = LOGIN_THROTTLE,
): Promise<number | null> {
  const { windowSeconds } = policy;
  const buckets = [
    { bucket: `login:${input.ip}|${input.email}`.slice(0, 200), limit: policy.accountLimit, windowSeconds },
    { bucket: `login-ip:${input.ip}`.slice(0, 200), limit: policy.ipLimit, windowSeconds },
  ];
  if (!(input.userId && (await isKnownAddress(db, input.userId, input.ip)))) {
    buckets.push({ bucket: `login-account:${input.email}`.slice(0, 200), limit: policy.accountWideLimit, windowSeconds });
  }
  let retryAfterSeconds = 0;
  for (const bucket of buckets) {
    const result = await consumeRateLimit(db, bucket);
    if (!result.allowed) retryAfterSeconds = Math.max(retryAfterSeconds, result.retryAfterSeconds);
  }
  return retryAfterSeconds > 0 ? retryAfterSeconds : null;
}

/** Remembers that the account signed in from this address (called after a successful sign-in). */
export async function rememberSignInAddress(db: Db, params: { userId: string; ip: string }): Promise<void> {
  await upsertSignInAddress(db, { userId: params.userId, address: params.ip.slice(0, 100) });
}

function isKnownAddress(db: Db, userId: string, ip: string): Promise<boolean> {
  return hasRecentSignInAddress(db, { userId, address: ip.slice(0, 100), withinDays: KNOWN_ADDRESS_DAYS });
}
