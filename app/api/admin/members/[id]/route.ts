import { z } from "zod";
import { readJsonBody, withAdminRoute } from "@/lib/auth/route-handler";
import { changeMemberRole } from "@/lib/services/change-member-role";
import { removeMember } from "@/lib/services/remove-member";
import { setMemberDisabled } from "@/lib/services/set-member-disabled";
import { parseInput } from "@/lib/services/validation";

const ChangeMemberBody = z.union(
  [
    z.object({ role: z.enum(["admin", "member"], "role must be admin or member") }).strict(),
    z.object({ disabled: z.boolean("disabled must be true or false") }).strict(),
  ],
  "send either {\"role\": \"admin\" | \"member\"} or {\"disabled\": true | false}",
);

/**
 * PATCH /api/admin/members/{userId} — {"role"} changes a member's role;
 * {"disabled"} disables or re-enables them in this organization (effective
 * on their next request). The last admin cannot be demoted or disabled (409).
 */
export const PATCH = withAdminRoute<{ id: string }>(async (request, { db, session, params }) => {
  const body = parseInput(ChangeMemberBody, await readJsonBody(request));
  if ("role" in body) {
    const result = await changeMemberRole(db, { organizationId: session.organizationId, userId: params.id, role: body.role, changedBy: session.userId });
    return Response.json({ member: { userId: result.userId, role: result.role } });
  }
  const result = await setMemberDisabled(db, { organizationId: session.organizationId, userId: params.id, disabled: body.disabled, changedBy: session.userId });
  return Response.json({ member: { userId: result.userId, disabled: result.disabled } });
});

/** DELETE /api/admin/members/{userId} — removes the person from this organization (204), effective on their next request. */
export const DELETE = withAdminRoute<{ id: string }>(async (_request, { db, session, params }) => {
  await removeMember(db, { organizationId: session.organizationId, userId: params.id, removedBy: session.userId });
  return new Response(null, { status: 204 });
});
