import { and, asc, eq, isNull, ne, sql } from "drizzle-orm";
import type { Db } from "../client";
import { memberships, users, type Membership, type MembershipRole } from "../schema";

/** What an admin sees about a member: never the password hash. */
export interface MemberSummary {
  userId: string;
  email: string;
  role: MembershipRole;
  joinedAt: Date;
  /** Disabled in this organization: cannot sign in to it until re-enabled. */
  disabled: boolean;
}

/** The organization's members, oldest first (the founding admin on top). */
export function listMemberSummaries(db: Db, params: { organizationId: string }): Promise<MemberSummary[]> {
  return db
    .select({ userId: users.id, email: users.email, role: memberships.role, joinedAt: memberships.createdAt, disabled: sql<boolean>`${memberships.disabledAt} is not null` })
    .from(memberships)
    .innerJoin(users, eq(users.id, memberships.userId))
    .where(eq(memberships.organizationId, params.organizationId))
    .orderBy(asc(memberships.createdAt), asc(users.email));
}

/** The organization's admins (only the enabled ones with `enabledOnly`), locked FOR UPDATE until the transaction ends. */
export function lockAdmins(tx: Db, params: { organizationId: string; enabledOnly: boolean }): Promise<{ userId: string }[]> {
  return tx
    .select({ userId: memberships.userId })
    .from(memberships)
    .where(
      and(
        eq(memberships.organizationId, params.organizationId),
        eq(memberships.role, "admin"),
        params.enabledOnly ? isNull(memberships.disabledAt) : undefined,
      ),
    )
    .for("update");
}

export async function setMembershipRole(db: Db, params: { organizationId: string; userId: string; role: MembershipRole }): Promise<void> {
  await db
    .update(memberships)
    .set({ role: params.role })
    .where(and(eq(memberships.organizationId, params.organizationId), eq(memberships.userId, params.userId)));
}

/** Whether the user is also a member of some organization other than this one. */
export async function hasMembershipElsewhere(db: Db, params: { organizationId: string; userId: string }): Promise<boolean> {
  const [row] = await db
    .select({ organizationId: memberships.organizationId })
    .from(memberships)
    .where(and(eq(memberships.userId, params.userId), ne(memberships.organizationId, params.organizationId)))
    .limit(1);
  return Boolean(row);
}

/** The user's membership of this organization, locked FOR UPDATE until the transaction ends. */
export async function lockMembership(tx: Db, params: { organizationId: string; userId: string }): Promise<Membership | undefined> {
  const [row] = await tx
    .select()
    .from(memberships)
    .where(and(eq(memberships.organizationId, params.organizationId), eq(memberships.userId, params.userId)))
    .for("update");
  return row;
}
