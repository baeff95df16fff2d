import "server-only";
import { randomBytes } from "node:crypto";
import type { Db } from "@/db/client";
import { insertAuditEvent } from "@/db/queries/audit-events";
import { findUserByEmail } from "@/db/queries/users";
import { consumeRateLimit } from "@/lib/api/rate-limit";
import { hashPassword, PASSWORD_MAX_LENGTH, verifyPassword } from "@/lib/services";
import { findHomeOrganizationId } from "./session-lookup";
import { signInGate } from "./sign-in-gate";

/**
 * Sign-in throttling (ASVS 6.1.1, 6.3.1): every attempt spends a token from
 * two GCRA buckets on the database clock. Spent tokens come back one per
 * window/limit, so refusals slow an attacker to a trickle with no permanent
 * lock-out.
 * - Per account AND address: guessing one account's password from one place.
 *   A stranger's failures fill their own bucket, never the owner's, so nobody
 *   can keep someone else locked out.
 * - Per address: spraying many accounts (or many guesses) from one place.
 * The address is the socket's (see ./client-ip), so a forged
 * X-Forwarded-For buys no fresh buckets.
 */
export interface LoginThrottlePolicy {
  accountLimit: number;
  ipLimit: number;
  windowSeconds: number;
}

export const LOGIN_THROTTLE: LoginThrottlePolicy = {
  /** 10 attempts per account and address per 15 minutes, then one more every 90 s. */
  accountLimit: 10,
  /** An office behind one NAT address signs in often; a spraying attacker tries many accounts. */
  ipLimit: 50,
  windowSeconds: 15 * 60,
};

/** Retry-after when too many sign-ins are already being checked (see ./sign-in-gate). */
const BUSY_RETRY_AFTER_SECONDS = 1;

export type AuthenticateResult =
  | { ok: true; userId: string; organizationId: string; email: string }
  | { ok: false; reason: "invalid" }
  | { ok: false; reason: "throttled"; retryAfterSeconds: number };

/** Verified against when the account does not exist, so the answer takes as long either way. */
let dummyHash: Promise<string> | undefined;

/**
 * Checks an e-mail and password. Throttled attempts are refused before the
 * password is looked at, so even the right password waits out the backoff.
 */
export async function authenticateCredentials(
  db: Db,
  input: { email: string; password: string; ip: string },
  policy: LoginThrottlePolicy = LOGIN_THROTTLE,
): Promise<AuthenticateResult> {
  const email = input.email.trim().toLowerCase();
  const throttle = await consumeLoginBuckets(db, email, input.ip, policy);
  if (throttle) return throttle;

  // Overlong passwords are refused without hashing them: they cannot match and would cost CPU.
  const password = input.password.length <= PASSWORD_MAX_LENGTH ? input.password : "";
  const user = email ? await findUserByEmail(db, email) : undefined;
  dummyHash ??= hashPassword(randomBytes(16).toString("hex"));
  const stored = user?.passwordHash ?? (await dummyHash);
  const verified = await signInGate().run(() => verifyPassword(stored, password));
  if (!verified) return { ok: false, reason: "throttled", retryAfterSeconds: BUSY_RETRY_AFTER_SECONDS };
  const matches = verified.value;
  // A failure on a real account lands in that account's organization, where its admins see it.
  const organizationId = user ? await findHomeOrganizationId(db, user.id) : null;
  if (!user || !matches || !password || !organizationId) {
    await insertAuditEvent(db, {
      organizationId,
      actor: "anonymous",
      action: "session.sign_in_failed",
      target: user?.id ?? null,
      detail: { ip: input.ip },
    });
    return { ok: false, reason: "invalid" };
  }
  await insertAuditEvent(db, { organizationId, actor: user.id, action: "session.signed_in", target: user.id, detail: { ip: input.ip } });
  return { ok: true, userId: user.id, organizationId, email: user.email };
}

async function consumeLoginBuckets(db: Db, email: string, ip: string, policy: LoginThrottlePolicy): Promise<AuthenticateResult | null> {
  const { windowSeconds } = policy;
  const buckets = [
    { bucket: `login:${ip}|${email}`.slice(0, 200), limit: policy.accountLimit, windowSeconds },
    { bucket: `login-ip:${ip}`.slice(0, 200), limit: policy.ipLimit, windowSeconds },
  ];
  let retryAfterSeconds = 0;
  for (const bucket of buckets) {
    const result = await consumeRateLimit(db, bucket);
    if (!result.allowed) retryAfterSeconds = Math.max(retryAfterSeconds, result.retryAfterSeconds);
  }
  return retryAfterSeconds > 0 ? { ok: false, reason: "throttled", retryAfterSeconds } : null;
}
