import { z } from "zod";
import type { Db } from "@/db/client";
import { insertAuditEvent } from "@/db/queries/audit-events";
import { findPasswordHash, replacePasswordHash } from "@/db/queries/users";
import { ApiError } from "@/lib/errors";
import { hashPassword, verifyPassword } from "./password-hash";
import { passwordSchema } from "./password-policy";
import { organizationIdSchema, parseInput } from "./validation";

const ChangePasswordInput = z.object({
  userId: z.string().min(1, "userId is required"),
  organizationId: organizationIdSchema,
  currentPassword: z.string("currentPassword is required").max(1024, "currentPassword is incorrect"),
  newPassword: passwordSchema("newPassword"),
});

/**
 * A person changes their own password, proving the current one (a stolen
 * session alone cannot take over the account). Every session they had,
 * this one included, ends: they sign in again with the new password. Audited
 * in the organization they were signed in to.
 */
export async function changePassword(
  db: Db,
  input: { userId: string; organizationId: string; currentPassword: string; newPassword: string },
): Promise<void> {
  const params = parseInput(ChangePasswordInput, input);
  const passwordHash = await findPasswordHash(db, { userId: params.userId });
  if (passwordHash === undefined) throw new ApiError("not_found", "User not found.");
  if (!(await verifyPassword(passwordHash, params.currentPassword))) {
    throw new ApiError("invalid_input", "The current password is incorrect.");
  }
  await setChosenPassword(db, { userId: params.userId, organizationId: params.organizationId, newPassword: params.newPassword, oldPassword: params.currentPassword });
}

/**
 * Stores a password the person chose themselves (here, or at a sign-in that
 * required a new one), clears any reset's requirement, ends their sessions
 * and audits it. The new password must differ from the old one.
 */
export async function setChosenPassword(
  db: Db,
  params: { userId: string; organizationId: string; newPassword: string; oldPassword: string },
): Promise<void> {
  const newPassword = parseInput(passwordSchema("newPassword"), params.newPassword);
  if (newPassword === params.oldPassword) throw new ApiError("invalid_input", "newPassword must differ from the current password.");
  const passwordHash = await hashPassword(newPassword);
  await db.transaction(async (tx) => {
    await replacePasswordHash(tx, { userId: params.userId, passwordHash, changeRequired: false });
    await insertAuditEvent(tx, { organizationId: params.organizationId, actor: params.userId, action: "user.password_changed", target: params.userId });
  });
}
