import { z } from "zod";
import type { Db } from "@/db/client";
import { newId } from "@/db/ids";
import { insertAuditEvent } from "@/db/queries/audit-events";
import { ensureOrganization } from "@/db/queries/organizations";
import { findUserByEmail, insertMembership, insertUser } from "@/db/queries/users";
import type { MembershipRole, Organization } from "@/db/schema";
import { ApiError } from "@/lib/errors";
import { isUniqueViolation } from "./unique-violation";
import { hashPassword } from "./password-hash";
import { passwordSchema } from "./password-policy";
import { ORGANIZATION_SLUG_PATTERN, parseInput } from "./validation";

export { PASSWORD_MAX_LENGTH, PASSWORD_MIN_LENGTH } from "./password-policy";

const CreateUserInput = z.object({
  email: z.string().trim().toLowerCase().pipe(z.email("email must be a valid address")),
  password: passwordSchema("password"),
  orgSlug: z.string().regex(ORGANIZATION_SLUG_PATTERN, "org must be lower-case letters, digits and hyphens"),
  orgName: z.string().trim().min(1).max(200).optional(),
  role: z.enum(["admin", "member"], "role must be admin or member"),
  actor: z.string().min(1, "actor is required"),
});

export interface CreatedUser {
  user: { id: string; email: string; createdAt: Date };
  organization: Organization;
  organizationCreated: boolean;
  role: MembershipRole;
}

/**
 * Creates a user and their membership, creating the organization when the
 * slug is new. Only the server itself calls this (the operator CLI with
 * OPERATOR, first-run onboarding), so there is no admin to check; the actor
 * is still required, so that the audit row names who did it.
 */
export async function createUser(
  db: Db,
  input: { email: string; password: string; orgSlug: string; orgName?: string; role: MembershipRole; actor: string },
): Promise<CreatedUser> {
  const params = parseInput(CreateUserInput, input);
  // Hashing takes tens of milliseconds: do it before the transaction, not inside it.
  const passwordHash = await hashPassword(params.password);
  try {
    return await db.transaction(async (tx) => {
      if (await findUserByEmail(tx, params.email)) throw duplicateEmail();
      const { organization, created } = await ensureOrganization(tx, {
        id: newId("org"),
        slug: params.orgSlug,
        name: params.orgName ?? params.orgSlug,
      });
      const user = await insertUser(tx, { id: newId("usr"), email: params.email, passwordHash });
      await insertMembership(tx, { userId: user.id, organizationId: organization.id, role: params.role });
      await insertAuditEvent(tx, {
        organizationId: organization.id,
        actor: params.actor,
        action: "user.created",
        target: user.id,
        detail: { email: user.email, role: params.role, organizationCreated: created },
      });
      return {
        user: { id: user.id, email: user.email, createdAt: user.createdAt },
        organization,
        organizationCreated: created,
        role: params.role,
      };
    });
  } catch (error) {
    // A concurrent creation of the same email loses the race at the unique index.
    if (isUniqueViolation(error)) throw duplicateEmail();
    throw error;
  }
}

function duplicateEmail(): ApiError {
  return new ApiError("conflict", "A user with this email already exists.");
}
