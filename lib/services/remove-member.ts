import { z } from "zod";
import type { Db } from "@/db/client";
import { insertAuditEvent } from "@/db/queries/audit-events";
import { deleteMembership } from "@/db/queries/users";
import { ApiError } from "@/lib/errors";
import { lockMemberForOffboarding } from "./member-guards";
import { organizationIdSchema, parseInput } from "./validation";

const RemoveMemberInput = z.object({
  organizationId: organizationIdSchema,
  userId: z.string().min(1, "userId is required"),
  removedBy: z.string().min(1, "removedBy is required"),
});

/**
 * Removes a person from an organization. Effective on their next request:
 * the guards re-read the membership every time. Their account, and any other
 * organization they belong to, is untouched. The last admin cannot be removed.
 */
export async function removeMember(db: Db, input: { organizationId: string; userId: string; removedBy: string }): Promise<void> {
  const params = parseInput(RemoveMemberInput, input);
  if (params.userId === params.removedBy) throw new ApiError("conflict", "You cannot remove yourself: ask another administrator.");
  await db.transaction(async (tx) => {
    const target = await lockMemberForOffboarding(tx, { organizationId: params.organizationId, userId: params.userId, actor: params.removedBy });
    await deleteMembership(tx, { organizationId: params.organizationId, userId: params.userId });
    await insertAuditEvent(tx, {
      organizationId: params.organizationId,
      actor: params.removedBy,
      action: "membership.removed",
      target: params.userId,
      detail: { role: target.role },
    });
  });
}
