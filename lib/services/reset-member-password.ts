import { randomBytes } from "node:crypto";
import { z } from "zod";
import type { Db } from "@/db/client";
import { insertAuditEvent } from "@/db/queries/audit-events";
import { findMembership, replacePasswordHash } from "@/db/queries/users";
import { hasMembershipElsewhere } from "@/db/queries/memberships";
import { withSystemScope } from "@/db/scope";
import { requireAdmin } from "./authorize";
import { ApiError } from "@/lib/errors";
import { OPERATOR } from "./operator";
import { hashPassword } from "./password-hash";
import { organizationIdSchema, parseInput } from "./validation";

const ResetMemberPasswordInput = z.object({
  organizationId: organizationIdSchema,
  userId: z.string().min(1, "userId is required"),
  resetBy: z.string().min(1, "resetBy is required"),
});

/** 16 bytes (128 bits) in base64url: 22 characters, over the minimum length. */
const TEMPORARY_PASSWORD_BYTES = 16;

/**
 * An admin (or the operator) resets a member's password: a random temporary
 * password, shown once to whoever reset it, that only lets the person choose
 * a new password at sign-in (users.password_change_required). Every session
 * of the member ends. The admin never chooses the member's lasting password.
 *
 * An admin may reset only someone who belongs to no other organization:
 * otherwise one organization's admin could sign in as the person and reach
 * another organization's data. The operator may reset anyone.
 */
export async function resetMemberPassword(
  db: Db,
  input: { organizationId: string; userId: string; resetBy: string },
): Promise<{ userId: string; temporaryPassword: string }> {
  const params = parseInput(ResetMemberPasswordInput, input);
  const byOperator = params.resetBy === OPERATOR;
  if (!byOperator) await requireAdmin(db, { organizationId: params.organizationId, userId: params.resetBy });
  if (params.userId === params.resetBy) throw new ApiError("conflict", "Change your own password on your account page.");
  // Another organization's user looks exactly like no user at all.
  if (!(await findMembership(db, params))) throw new ApiError("not_found", "Member not found.");
  if (!byOperator) {
    // The one question this organization's admin may ask about others: only whether one exists.
    const elsewhere = await withSystemScope("admin reset", () => hasMembershipElsewhere(db, { organizationId: params.organizationId, userId: params.userId }));
    if (elsewhere) {
      throw new ApiError("conflict", "This person's account is also used in another organization: they can change their password themselves, or an operator can reset it.");
    }
  }
  const temporaryPassword = randomBytes(TEMPORARY_PASSWORD_BYTES).toString("base64url");
  const passwordHash = await hashPassword(temporaryPassword);
  await db.transaction(async (tx) => {
    if (!(await findMembership(tx, params))) throw new ApiError("not_found", "Member not found.");
    await replacePasswordHash(tx, { userId: params.userId, passwordHash, changeRequired: true });
    await insertAuditEvent(tx, { organizationId: params.organizationId, actor: params.resetBy, action: "user.password_reset", target: params.userId });
  });
  return { userId: params.userId, temporaryPassword };
}
