import "server-only";
import { decode } from "next-auth/jwt";
import type { Db } from "@/db/client";
import { findLiveSessionMember, findOldestEnabledOrganizationId } from "@/db/queries/sessions";
import { withOrganizationScope } from "@/db/scope";
import type { MembershipRole } from "@/db/schema";
import { resolveAuthSecret } from "./secret";
import { secondsLeftInSession } from "./session-lifetime";

/** Who is signed in, as the database says right now. */
export interface SessionUser {
  userId: string;
  organizationId: string;
  role: MembershipRole;
  email: string;
}

/** What the encrypted session token carries: identities only, never the role. */
export interface SessionClaims {
  userId: string;
  organizationId: string;
  /** One id per sign-in, kept by every renewal of the token, so that signing out can end it. */
  sessionId: string;
  /** When the person signed in (ms since the epoch), kept by every renewal: the session ends a lifetime after it. */
  signedInAt: number;
}

/** Decrypts and checks a session token; null for a missing, forged, tampered or expired one. */
export async function readSessionClaims(token: string | undefined): Promise<SessionClaims | null> {
  if (!token) return null;
  const payload = await decode({ token, secret: resolveAuthSecret() }).catch(() => null);
  return payload ? claimsOfPayload(payload) : null;
}

/**
 * The claims of a decoded token, or null when any is missing or the session
 * has outlived its absolute lifetime, whatever expiry the token itself names.
 */
export function claimsOfPayload(payload: Record<string, unknown>): SessionClaims | null {
  const { sub, org, sid, sat } = payload;
  if (typeof sub !== "string" || typeof org !== "string" || typeof sid !== "string" || typeof sat !== "number") return null;
  if (secondsLeftInSession(sat) <= 0) return null;
  return { userId: sub, organizationId: org, sessionId: sid, signedInAt: sat };
}

/**
 * Re-reads the membership on every call (ASVS 7.4.1): a removed user, a
 * demoted admin, a signed-out session or one ended by "sign out everywhere"
 * loses access on the next request, whatever the token says. The token's
 * renewal (options.ts) asks the same question. It is asked in the scope of
 * the organization the token names: no other organization's row can answer.
 */
export function loadSessionUser(db: Db, claims: SessionClaims): Promise<SessionUser | null> {
  return withOrganizationScope(claims.organizationId, () => findLiveSessionMember(db, claims));
}

/** The organization a user works in after signing in: their oldest membership that is not disabled. */
export function findHomeOrganizationId(db: Db, userId: string): Promise<string | null> {
  return findOldestEnabledOrganizationId(db, { userId });
}
