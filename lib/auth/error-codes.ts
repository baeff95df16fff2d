/**
 * The `error` next-auth passes to the sign-in page when throttled: this code,
 * a colon, and the wait in seconds. Shared by the server (options) and the
 * sign-in form, which turns it into words.
 */
export const THROTTLED_ERROR = "Throttled";

export function throttledError(retryAfterSeconds: number): string {
  return `${THROTTLED_ERROR}:${retryAfterSeconds}`;
}

/** The wait in seconds carried by a throttled error code, or null for any other code. */
export function retryAfterOf(code: string): number | null {
  const [name, seconds] = code.split(":");
  return name === THROTTLED_ERROR && seconds && /^\d+$/.test(seconds) ? Number(seconds) : null;
}
