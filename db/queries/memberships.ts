import { and, asc, eq, isNull, sql } from "drizzle-orm";
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

/** The organization's enabled admins, locked FOR UPDATE until the transaction ends. */
export function lockEnabledAdmins(tx: Db, params: { organizationId: string }): Promise<{ userId: string }[]> {
  return tx
    .select({ userId: memberships.userId })
    .from(memberships)
    .where(and(eq(memberships.organizationId, params.organizationId), eq(memberships.role, "admin"), isNull(memberships.disabledAt)))
    .for("update");
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
