import { env } from "@/lib/env";

/**
 * A session lasts SESSION_LIFETIME_HOURS from the moment of sign-in, however
 * often its token is renewed (ASVS 7.3.2): renewals carry the sign-in time
 * forward unchanged and never push the token's expiry past this end.
 */
export function sessionLifetimeMs(): number {
  return env().SESSION_LIFETIME_HOURS * 60 * 60 * 1000;
}

/** When a session signed in at `signedInAt` (ms since the epoch) ends. */
export function sessionEndsAt(signedInAt: number): Date {
  return new Date(signedInAt + sessionLifetimeMs());
}

/** Whole seconds the session has left (0 once it has ended): the renewed token's maxAge. */
export function secondsLeftInSession(signedInAt: number, now = Date.now()): number {
  return Math.max(0, Math.floor((signedInAt + sessionLifetimeMs() - now) / 1000));
}
