import { z } from "zod";
import { readJsonBody, withAdminRoute } from "@/lib/auth/route-handler";
import { addMember } from "@/lib/services/add-member";
import { listMembers } from "@/lib/services/list-members";
import { parseInput } from "@/lib/services/validation";

const AddMemberBody = z.object({
  email: z.string("email is required"),
  password: z.string("password is required"),
  role: z.enum(["admin", "member"], "role must be admin or member"),
});

/** GET /api/admin/members — who belongs to the organization, with their roles. */
export const GET = withAdminRoute(async (_request, { db, session }) => {
  return Response.json({ members: await listMembers(db, { organizationId: session.organizationId }) });
});

/**
 * POST /api/admin/members — adds a person to the caller's organization: a new
 * account with this first password, or, for an e-mail that has an account
 * already, that account (its own password stands). The answer is the same.
 */
export const POST = withAdminRoute(async (request, { db, session }) => {
  const body = parseInput(AddMemberBody, await readJsonBody(request));
  const member = await addMember(db, { ...body, organizationId: session.organizationId, addedBy: session.userId });
  return Response.json({ member }, { status: 201 });
});
