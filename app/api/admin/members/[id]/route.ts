import { z } from "zod";
import { readJsonBody, withAdminRoute } from "@/lib/auth/route-handler";
import { changeMemberRole } from "@/lib/services/change-member-role";
import { parseInput } from "@/lib/services/validation";

const ChangeRoleBody = z.object({ role: z.enum(["admin", "member"], "role must be admin or member") });

/** PATCH /api/admin/members/{userId} — changes a member's role; the last admin cannot be demoted (409). */
export const PATCH = withAdminRoute<{ id: string }>(async (request, { db, session, params }) => {
  const { role } = parseInput(ChangeRoleBody, await readJsonBody(request));
  const result = await changeMemberRole(db, { organizationId: session.organizationId, userId: params.id, role, changedBy: session.userId });
  return Response.json({ member: { userId: result.userId, role: result.role } });
});
