import { z } from "zod";
import type { Db } from "@/db/client";
import { newId } from "@/db/ids";
import { insertAuditEvent } from "@/db/queries/audit-events";
import { getOrganizationById } from "@/db/queries/organizations";
import { findMembership, findUserByEmail, insertMembership, insertUser } from "@/db/queries/users";
import type { MembershipRole } from "@/db/schema";
import { requireAdmin } from "./authorize";
import { ApiError } from "@/lib/errors";
import { isUniqueViolation } from "./unique-violation";
import { hashPassword } from "./password-hash";
import { passwordSchema } from "./password-policy";
import { organizationIdSchema, parseInput } from "./validation";

const AddMemberInput = z.object({
  organizationId: organizationIdSchema,
  addedBy: z.string().min(1, "addedBy is required"),
  email: z.string().trim().toLowerCase().pipe(z.email("email must be a valid address")),
  password: passwordSchema("password"),
  role: z.enum(["admin", "member"], "role must be admin or member"),
});

export interface AddedMember {
  userId: string;
  email: string;
  role: MembershipRole;
  /** When they joined this organization (never when their account was made: that would tell another tenant's history). */
  joinedAt: Date;
}

/**
 * An admin adds a person to their own organization. A new e-mail becomes a
 * user with the first password given. An e-mail that already has an account
 * (in another organization) joins this one with the password they already
 * have, and the first password is dropped: the answer is the same either way,
 * so an admin cannot learn who has an account elsewhere. Only someone already
 * in this organization is refused (409). Audited in the same transaction.
 */
export async function addMember(
  db: Db,
  input: { organizationId: string; addedBy: string; email: string; password: string; role: MembershipRole },
): Promise<AddedMember> {
  const params = parseInput(AddMemberInput, input);
  await requireAdmin(db, { organizationId: params.organizationId, userId: params.addedBy });
  if (!(await getOrganizationById(db, params.organizationId))) throw new ApiError("not_found", "Organization not found.");
  // Hashed whether or not it is used, so both paths take as long; before the transaction, not inside it.
  const passwordHash = await hashPassword(params.password);
  try {
    return await db.transaction(async (tx) => {
      const existing = await findUserByEmail(tx, params.email);
      if (existing && (await findMembership(tx, { organizationId: params.organizationId, userId: existing.id }))) {
        throw new ApiError("conflict", "This person is already a member of this organization.");
      }
      const user = existing ?? (await insertUser(tx, { id: newId("usr"), email: params.email, passwordHash }));
      const membership = await insertMembership(tx, { userId: user.id, organizationId: params.organizationId, role: params.role });
      await insertAuditEvent(tx, {
        organizationId: params.organizationId,
        actor: params.addedBy,
        // One action either way: this organization's audit log must not tell that the e-mail had an account elsewhere.
        action: "membership.added",
        target: user.id,
        detail: { email: user.email, role: params.role },
      });
      return { userId: user.id, email: user.email, role: params.role, joinedAt: membership.createdAt };
    });
  } catch (error) {
    // Two admins adding the same new e-mail at once: the loser retries as the existing-account case.
    if (isUniqueViolation(error)) throw new ApiError("conflict", "This person was added by someone else just now: reload the list.");
    throw error;
  }
}
