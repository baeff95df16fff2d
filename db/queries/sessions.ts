import { and, asc, eq, isNull, lt, notExists, or, sql } from "drizzle-orm";
import type { Db } from "../client";
import { memberships, revokedSessions, users, type MembershipRole } from "../schema";

/** Lists a session as ended, and forgets sessions whose tokens have expired anyway. */
export async function revokeSession(db: Db, params: { sessionId: string; userId: string; expiresAt: Date }): Promise<void> {
  await db.insert(revokedSessions).values(params).onConflictDoNothing();
  await db.delete(revokedSessions).where(lt(revokedSessions.expiresAt, sql`now()`));
}

/**
 * The member behind a session, only while the session still stands: the
 * membership exists and is enabled, the session was not signed out, and no
 * "sign out everywhere" came after `signedInAt` (ms since the epoch).
 */
export async function findLiveSessionMember(
  db: Db,
  params: { userId: string; organizationId: string; sessionId: string; signedInAt: number },
): Promise<{ userId: string; email: string; organizationId: string; role: MembershipRole } | null> {
  const [row] = await db
    .select({ userId: users.id, email: users.email, organizationId: memberships.organizationId, role: memberships.role })
    .from(memberships)
    .innerJoin(users, eq(users.id, memberships.userId))
    .where(
      and(
        eq(memberships.userId, params.userId),
        eq(memberships.organizationId, params.organizationId),
        isNull(memberships.disabledAt),
        notExists(db.select().from(revokedSessions).where(eq(revokedSessions.sessionId, params.sessionId))),
        // "Sign out everywhere" ends every session signed in before it.
        or(isNull(users.sessionsRevokedAt), lt(users.sessionsRevokedAt, new Date(params.signedInAt))),
      ),
    )
    .limit(1);
  return row ?? null;
}

/** The user's oldest membership that is not disabled (ties broken by organization id), or null. */
export async function findOldestEnabledOrganizationId(db: Db, params: { userId: string }): Promise<string | null> {
  const [row] = await db
    .select({ organizationId: memberships.organizationId })
    .from(memberships)
    .where(and(eq(memberships.userId, params.userId), isNull(memberships.disabledAt)))
    .orderBy(asc(memberships.createdAt), asc(memberships.organizationId))
    .limit(1);
  return row?.organizationId ?? null;
}
