import { z } from "zod";
import type { Db } from "@/db/client";
import { insertAuditEvent } from "@/db/queries/audit-events";
import { lockAdmins, lockMembership, setMembershipRole } from "@/db/queries/memberships";
import type { MembershipRole } from "@/db/schema";
import { requireAdmin } from "./authorize";
import { ApiError } from "@/lib/errors";
import { organizationIdSchema, parseInput } from "./validation";

const ChangeMemberRoleInput = z.object({
  organizationId: organizationIdSchema,
  userId: z.string().min(1, "userId is required"),
  role: z.enum(["admin", "member"], "role must be admin or member"),
  changedBy: z.string().min(1, "changedBy is required"),
});

/**
 * Makes a member an admin or an admin a member. The organization's enabled
 * admin rows are locked first, so two admins demoting each other at the same
 * moment cannot leave it with none; a disabled admin cannot sign in, so it
 * does not count (as in offboarding).
 */
export async function changeMemberRole(
  db: Db,
  input: { organizationId: string; userId: string; role: MembershipRole; changedBy: string },
): Promise<{ userId: string; role: MembershipRole; changed: boolean }> {
  const params = parseInput(ChangeMemberRoleInput, input);
  return db.transaction(async (tx) => {
    await requireAdmin(tx, { organizationId: params.organizationId, userId: params.changedBy });
    const admins = await lockAdmins(tx, { organizationId: params.organizationId, enabledOnly: true });
    const target = await lockMembership(tx, { organizationId: params.organizationId, userId: params.userId });
    // Another organization's user looks exactly like no user at all.
    if (!target) throw new ApiError("not_found", "Member not found.");
    if (target.role === params.role) return { userId: params.userId, role: params.role, changed: false };
    if (target.role === "admin" && !target.disabledAt && admins.length <= 1) {
      throw new ApiError("conflict", "An organization needs at least one administrator: make someone else an administrator first.");
    }
    await setMembershipRole(tx, { organizationId: params.organizationId, userId: params.userId, role: params.role });
    await insertAuditEvent(tx, {
      organizationId: params.organizationId,
      actor: params.changedBy,
      action: "membership.role_changed",
      target: params.userId,
      detail: { from: target.role, to: params.role },
    });
    return { userId: params.userId, role: params.role, changed: true };
  });
}
