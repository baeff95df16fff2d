import { and, eq, sql } from "drizzle-orm";
import type { Db } from "../client";
import { memberships, users, type Membership, type MembershipRole, type User } from "../schema";

export async function findUserByEmail(db: Db, email: string): Promise<User | undefined> {
  const [row] = await db.select().from(users).where(eq(users.email, email)).limit(1);
  return row;
}

export async function insertUser(db: Db, values: { id: string; email: string; passwordHash: string }): Promise<User> {
  const [row] = await db.insert(users).values(values).returning();
  if (!row) throw new Error("insert into users returned no row");
  return row;
}

export async function insertMembership(
  db: Db,
  values: { userId: string; organizationId: string; role: MembershipRole },
): Promise<Membership> {
  const [row] = await db.insert(memberships).values(values).returning();
  if (!row) throw new Error("insert into memberships returned no row");
  return row;
}

export async function findMembership(
  db: Db,
  params: { organizationId: string; userId: string },
): Promise<Membership | undefined> {
  const [row] = await db
    .select()
    .from(memberships)
    .where(and(eq(memberships.organizationId, params.organizationId), eq(memberships.userId, params.userId)))
    .limit(1);
  return row;
}

/**
 * Replaces a user's password hash and ends every session signed in before now
 * (ASVS 6.2.x / 7.4.3: whoever knew the old password loses their sessions).
 * `changeRequired`: the new password is temporary (a reset) and must be
 * replaced at the next sign-in.
 */
export async function replacePasswordHash(db: Db, params: { userId: string; passwordHash: string; changeRequired: boolean }): Promise<void> {
  await db
    .update(users)
    .set({ passwordHash: params.passwordHash, passwordChangeRequired: params.changeRequired, sessionsRevokedAt: new Date() })
    .where(eq(users.id, params.userId));
}

/** Arbitrary constant naming the advisory lock that lets only one first-run setup proceed. */
const FIRST_RUN_LOCK_KEY = 7_305_114_202;

/**
 * Holds the first-run lock until the surrounding transaction ends, so the
 * "no user yet" check and the first admin's insert cannot interleave with
 * another first run's. Call it only inside a transaction.
 */
export async function lockFirstRun(tx: Db): Promise<void> {
  await tx.execute(sql`SELECT pg_advisory_xact_lock(${FIRST_RUN_LOCK_KEY})`);
}

/** Whether any user exists, in any organization (first-run setup is installation-wide). */
export async function anyUserExists(db: Db): Promise<boolean> {
  const [row] = await db.select({ found: sql<boolean>`true` }).from(users).limit(1);
  return Boolean(row);
}

/** "Sign out everywhere": every session of the user signed in before now is ended (the guards compare). */
export async function markSessionsRevoked(db: Db, params: { userId: string }): Promise<void> {
  await db.update(users).set({ sessionsRevokedAt: new Date() }).where(eq(users.id, params.userId));
}

export async function findPasswordHash(db: Db, params: { userId: string }): Promise<string | undefined> {
  const [row] = await db.select({ passwordHash: users.passwordHash }).from(users).where(eq(users.id, params.userId)).limit(1);
  return row?.passwordHash;
}

/** Removes the user from this organization only; their account and other memberships stay. */
export async function deleteMembership(db: Db, params: { organizationId: string; userId: string }): Promise<void> {
  await db
    .delete(memberships)
    .where(and(eq(memberships.organizationId, params.organizationId), eq(memberships.userId, params.userId)));
}

/** Disables (or re-enables) the user's membership of this organization. */
export async function setMembershipDisabled(
  db: Db,
  params: { organizationId: string; userId: string; disabled: boolean },
): Promise<void> {
  await db
    .update(memberships)
    .set({ disabledAt: params.disabled ? new Date() : null })
    .where(and(eq(memberships.organizationId, params.organizationId), eq(memberships.userId, params.userId)));
}
