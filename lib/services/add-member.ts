import { z } from "zod";
import type { Db } from "@/db/client";
import { getOrganizationById } from "@/db/queries/organizations";
import type { MembershipRole } from "@/db/schema";
import { requireAdmin } from "./authorize";
import { createUser, type CreatedUser } from "./create-user";
import { ServiceError } from "./errors";
import { organizationIdSchema, parseInput } from "./validation";

const AddMemberInput = z.object({
  organizationId: organizationIdSchema,
  addedBy: z.string().min(1, "addedBy is required"),
});

/**
 * An admin adds a person to their own organization with a first password
 * (createUser validates e-mail, password and role, and writes the audit row
 * in its transaction with the admin as actor).
 */
export async function addMember(
  db: Db,
  input: { organizationId: string; addedBy: string; email: string; password: string; role: MembershipRole },
): Promise<CreatedUser> {
  const { organizationId, addedBy } = parseInput(AddMemberInput, input);
  await requireAdmin(db, { organizationId, userId: addedBy });
  const organization = await getOrganizationById(db, organizationId);
  if (!organization) throw new ServiceError("not_found", "Organization not found.");
  return createUser(db, { email: input.email, password: input.password, orgSlug: organization.slug, role: input.role, actor: addedBy });
}
