import "server-only";
import { and, asc, eq, isNull, lt, notExists, or } from "drizzle-orm";
import { decode } from "next-auth/jwt";
import type { Db } from "@/db/client";
import { memberships, revokedSessions, users, type MembershipRole } from "@/db/schema";
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
 * renewal (options.ts) asks the same question.
 */
export async function loadSessionUser(db: Db, claims: SessionClaims): Promise<SessionUser | null> {
  const [row] = await db
    .select({ userId: users.id, email: users.email, organizationId: memberships.organizationId, role: memberships.role })
    .from(memberships)
    .innerJoin(users, eq(users.id, memberships.userId))
    .where(
      and(
        eq(memberships.userId, claims.userId),
        eq(memberships.organizationId, claims.organizationId),
        isNull(memberships.disabledAt),
        notExists(db.select().from(revokedSessions).where(eq(revokedSessions.sessionId, claims.sessionId))),
        // "Sign out everywhere" ends every session signed in before it.
        or(isNull(users.sessionsRevokedAt), lt(users.sessionsRevokedAt, new Date(claims.signedInAt))),
      ),
    )
    .limit(1);
  return row ?? null;
}

/** The organization a user works in after signing in: their oldest membership that is not disabled. */
export async function findHomeOrganizationId(db: Db, userId: string): Promise<string | null> {
  const [row] = await db
    .select({ organizationId: memberships.organizationId })
    .from(memberships)
    .where(and(eq(memberships.userId, userId), isNull(memberships.disabledAt)))
    .orderBy(asc(memberships.createdAt), asc(memberships.organizationId))
    .limit(1);
  return row?.organizationId ?? null;
}
