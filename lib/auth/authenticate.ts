import "server-only";
import { randomBytes } from "node:crypto";
import type { Db } from "@/db/client";
import { insertAuditEvent } from "@/db/queries/audit-events";
import { findUserByEmail } from "@/db/queries/users";
import { ApiError } from "@/lib/errors";
import { hashPassword, PASSWORD_MAX_LENGTH, verifyPassword } from "@/lib/services";
import { setChosenPassword } from "@/lib/services/change-password";
import { findHomeOrganizationId } from "./session-lookup";
import { consumeLoginAttempt, LOGIN_THROTTLE, type LoginThrottlePolicy, rememberSignInAddress } from "./login-throttle";
import { signInGate } from "./sign-in-gate";

export { LOGIN_THROTTLE, type LoginThrottlePolicy } from "./login-throttle";

/** Retry-after when too many sign-ins are already being checked (see ./sign-in-gate). */
const BUSY_RETRY_AFTER_SECONDS = 1;

export type AuthenticateResult =
  | { ok: true; userId: string; organizationId: string; email: string }
  | { ok: false; reason: "invalid" }
  /** The right password, but a reset's temporary one: the person must choose a new password (send `newPassword`). */
  | { ok: false; reason: "password_change_required" }
  /** The new password chosen at such a sign-in was refused; `detail` says why. */
  | { ok: false; reason: "new_password_invalid"; detail: string }
  | { ok: false; reason: "throttled"; retryAfterSeconds: number };

/** Verified against when the account does not exist, so the answer takes as long either way. */
let dummyHash: Promise<string> | undefined;

/**
 * Checks an e-mail and password. Throttled attempts are refused before the
 * password is looked at, so even the right password waits out the backoff.
 */
export async function authenticateCredentials(
  db: Db,
  input: { email: string; password: string; ip: string; newPassword?: string },
  policy: LoginThrottlePolicy = LOGIN_THROTTLE,
): Promise<AuthenticateResult> {
  const email = input.email.trim().toLowerCase();
  const user = email ? await findUserByEmail(db, email) : undefined;
  const retryAfterSeconds = await consumeLoginAttempt(db, { email, ip: input.ip, userId: user?.id }, policy);
  if (retryAfterSeconds !== null) return { ok: false, reason: "throttled", retryAfterSeconds };

  // Overlong passwords are refused without hashing them: they cannot match and would cost CPU.
  const password = input.password.length <= PASSWORD_MAX_LENGTH ? input.password : "";
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
  if (user.passwordChangeRequired) {
    // A temporary password never opens a session: it only lets its holder choose a lasting one.
    if (!input.newPassword) return { ok: false, reason: "password_change_required" };
    try {
      await setChosenPassword(db, { userId: user.id, organizationId, newPassword: input.newPassword, oldPassword: password });
    } catch (error) {
      if (error instanceof ApiError) return { ok: false, reason: "new_password_invalid", detail: error.message };
      throw error;
    }
  }
  await rememberSignInAddress(db, { userId: user.id, ip: input.ip });
  await insertAuditEvent(db, { organizationId, actor: user.id, action: "session.signed_in", target: user.id, detail: { ip: input.ip } });
  return { ok: true, userId: user.id, organizationId, email: user.email };
}

/**
 * The sign-in throttle, for other checks of a password (changing one's own):
 * a stolen session must not become a faster way to guess the password. The
 * retry-after in seconds, or null when the attempt may go ahead.
 */
export async function throttlePasswordCheck(db: Db, input: { userId: string; email: string; ip: string }): Promise<number | null> {
  return consumeLoginAttempt(db, { email: input.email.trim().toLowerCase(), ip: input.ip, userId: input.userId });
}
