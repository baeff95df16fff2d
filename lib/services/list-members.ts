import { asc, eq, sql } from "drizzle-orm";
import type { Db } from "@/db/client";
import { memberships, users, type MembershipRole } from "@/db/schema";
import { organizationIdSchema, parseInput } from "./validation";

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
export async function listMembers(db: Db, input: { organizationId: string }): Promise<MemberSummary[]> {
  const organizationId = parseInput(organizationIdSchema, input.organizationId);
  return db
    .select({ userId: users.id, email: users.email, role: memberships.role, joinedAt: memberships.createdAt, disabled: sql<boolean>`${memberships.disabledAt} is not null` })
    .from(memberships)
    .innerJoin(users, eq(users.id, memberships.userId))
    .where(eq(memberships.organizationId, organizationId))
    .orderBy(asc(memberships.createdAt), asc(users.email));
}
