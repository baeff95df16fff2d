import { NEW_PASSWORD_INVALID_ERROR, PASSWORD_CHANGE_REQUIRED_ERROR, retryAfterOf, SIGN_IN_UNAVAILABLE_ERROR } from "@/lib/auth/error-codes";
import { PASSWORD_MIN_LENGTH } from "@/lib/services/password-policy";

/** next-auth's error codes (and ours) in words for the person at the keyboard. */
export function signInErrorMessage(code: string): string {
  if (code === "CredentialsSignin") return "The e-mail or password is incorrect.";
  const wait = retryAfterOf(code);
  if (wait !== null) return `Too many sign-in attempts. Try again in ${describeWait(wait)}.`;
  if (code === "Unreachable") return "The server could not be reached. Check your connection and try again.";
  if (code === "SessionRequired") return "Sign in to continue.";
  if (code === SIGN_IN_UNAVAILABLE_ERROR) return "Sign-in is not available just now. Try again in a moment.";
  if (code === PASSWORD_CHANGE_REQUIRED_ERROR) return "Your password was reset. Choose a new password to sign in.";
  if (code === NEW_PASSWORD_INVALID_ERROR) return `Choose a new password of at least ${PASSWORD_MIN_LENGTH} characters, different from the temporary one.`;
  return "Sign-in failed. Try again, or ask your administrator for help.";
}

function describeWait(seconds: number): string {
  if (seconds < 60) return `${seconds} second${seconds === 1 ? "" : "s"}`;
  const minutes = Math.ceil(seconds / 60);
  return `${minutes} minute${minutes === 1 ? "" : "s"}`;
}
