import { retryAfterOf } from "@/lib/auth/error-codes";

/** next-auth's error codes (and ours) in words for the person at the keyboard. */
export function signInErrorMessage(code: string): string {
  if (code === "CredentialsSignin") return "The e-mail or password is incorrect.";
  const wait = retryAfterOf(code);
  if (wait !== null) return `Too many sign-in attempts. Try again in ${describeWait(wait)}.`;
  if (code === "Unreachable") return "The server could not be reached. Check your connection and try again.";
  if (code === "SessionRequired") return "Sign in to continue.";
  return "Sign-in failed. Try again, or ask your administrator for help.";
}

function describeWait(seconds: number): string {
  if (seconds < 60) return `${seconds} second${seconds === 1 ? "" : "s"}`;
  const minutes = Math.ceil(seconds / 60);
  return `${minutes} minute${minutes === 1 ? "" : "s"}`;
}
