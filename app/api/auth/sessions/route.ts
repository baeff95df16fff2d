import { withMemberRoute } from "@/lib/auth/route-handler";
import { revokeUserSessions } from "@/lib/services/revoke-user-sessions";

/**
 * DELETE /api/auth/sessions — "sign out everywhere": ends every session of
 * the signed-in user, this one included (204). A static route, so next-auth's
 * catch-all beside it never sees it.
 */
export const DELETE = withMemberRoute(async (_request, { db, session }) => {
  await revokeUserSessions(db, { organizationId: session.organizationId, userId: session.userId, revokedBy: session.userId });
  return new Response(null, { status: 204 });
});
