import { z } from "zod";
import type { Db } from "@/db/client";
import { insertAuditEvent } from "@/db/queries/audit-events";
import { markSessionsRevoked, setMembershipDisabled } from "@/db/queries/users";
import { ApiError } from "@/lib/errors";
import { lockMemberForOffboarding } from "./member-guards";
import { organizationIdSchema, parseInput } from "./validation";

const SetMemberDisabledInput = z.object({
  organizationId: organizationIdSchema,
  userId: z.string().min(1, "userId is required"),
  disabled: z.boolean("disabled must be true or false"),
  changedBy: z.string().min(1, "changedBy is required"),
});

/**
 * Disables (or re-enables) a member in this organization: a disabled member
 * cannot sign in to it, and their sessions are refused from the next request
 * on. Disabling also ends those sessions for good, so re-enabling never
 * revives a session (a stolen cookie included) that was open before. The last enabled admin cannot be disabled, nor can an admin
 * disable themselves.
 */
export async function setMemberDisabled(
  db: Db,
  input: { organizationId: string; userId: string; disabled: boolean; changedBy: string },
): Promise<{ userId: string; disabled: boolean; changed: boolean }> {
  const params = parseInput(SetMemberDisabledInput, input);
  if (params.userId === params.changedBy) throw new ApiError("conflict", "You cannot disable yourself: ask another administrator.");
  return db.transaction(async (tx) => {
    const target = await lockMemberForOffboarding(tx, { organizationId: params.organizationId, userId: params.userId, actor: params.changedBy });
    if (Boolean(target.disabledAt) === params.disabled) return { userId: params.userId, disabled: params.disabled, changed: false };
    await setMembershipDisabled(tx, { organizationId: params.organizationId, userId: params.userId, disabled: params.disabled });
    if (params.disabled) await markSessionsRevoked(tx, { userId: params.userId });
    await insertAuditEvent(tx, {
      organizationId: params.organizationId,
      actor: params.changedBy,
      action: params.disabled ? "membership.disabled" : "membership.enabled",
      target: params.userId,
    });
    return { userId: params.userId, disabled: params.disabled, changed: true };
  });
}
