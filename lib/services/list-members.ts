import type { Db } from "@/db/client";
import { listMemberSummaries, type MemberSummary } from "@/db/queries/memberships";
import { organizationIdSchema, parseInput } from "./validation";

export type { MemberSummary };

/** The organization's members, oldest first (the founding admin on top). */
export async function listMembers(db: Db, input: { organizationId: string }): Promise<MemberSummary[]> {
  const organizationId = parseInput(organizationIdSchema, input.organizationId);
  return listMemberSummaries(db, { organizationId });
}
