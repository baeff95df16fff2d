import { withAdminRoute } from "@/lib/auth/route-handler";
import { revokeUserSessions } from "@/lib/services/revoke-user-sessions";

/** DELETE /api/admin/members/{userId}/sessions — ends every session of that member, on every device (204). */
export const DELETE = withAdminRoute<{ id: string }>(async (_request, { db, session, params }) => {
  await revokeUserSessions(db, { organizationId: session.organizationId, userId: params.id, revokedBy: session.userId });
  return new Response(null, { status: 204 });
});
