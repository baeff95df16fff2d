import type { Db } from "@/db/client";
import { lockAdmins, lockMembership } from "@/db/queries/memberships";
import type { Membership } from "@/db/schema";
import { requireAdmin } from "./authorize";
import { ApiError } from "@/lib/errors";
import { OPERATOR } from "./operator";

/**
 * What removing or disabling a member needs first, inside the caller's
 * transaction: the actor is an admin (or the operator), the member exists here (another
 * organization's user looks exactly like no user), and the organization keeps
 * at least one enabled admin. The admin rows are locked, so two admins
 * removing each other at once cannot leave none.
 */
export async function lockMemberForOffboarding(tx: Db, params: { organizationId: string; userId: string; actor: string }): Promise<Membership> {
  if (params.actor !== OPERATOR) await requireAdmin(tx, { organizationId: params.organizationId, userId: params.actor });
  const admins = await lockAdmins(tx, { organizationId: params.organizationId, enabledOnly: true });
  const target = await lockMembership(tx, { organizationId: params.organizationId, userId: params.userId });
  if (!target) throw new ApiError("not_found", "Member not found.");
  const lastAdmin = target.role === "admin" && !target.disabledAt && admins.length <= 1;
  if (lastAdmin) throw new ApiError("conflict", "An organization needs at least one administrator: make someone else an administrator first.");
  return target;
}
