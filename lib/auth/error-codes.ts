/**
 * The `error` next-auth passes to the sign-in page when throttled: this code,
 * a colon, and the wait in seconds. Shared by the server (options) and the
 * sign-in form, which turns it into words.
 */
const THROTTLED_ERROR = "Throttled";

export function throttledError(retryAfterSeconds: number): string {
  return `${THROTTLED_ERROR}:${retryAfterSeconds}`;
}

/** The wait in seconds carried by a throttled error code, or null for any other code. */
export function retryAfterOf(code: string): number | null {
  const [name, seconds] = code.split(":");
  return name === THROTTLED_ERROR && seconds && /^\d+$/.test(seconds) ? Number(seconds) : null;
}

/** The password was a reset's temporary one: the sign-in form asks for a new password and sends it as `newPassword`. */
export const PASSWORD_CHANGE_REQUIRED_ERROR = "PasswordChangeRequired";

/** The new password sent with such a sign-in was refused (too short, too long, or the temporary one again). */
export const NEW_PASSWORD_INVALID_ERROR = "NewPasswordInvalid";

/**
 * Sign-in failed for a reason that is not the person's (the database, a bug):
 * the cause is logged under a reference, never put in the redirect, where
 * next-auth would carry a thrown message (a failed query's SQL) to the browser.
 */
export const SIGN_IN_UNAVAILABLE_ERROR = "SignInUnavailable";
