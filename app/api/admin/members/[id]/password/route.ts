import { withAdminRoute } from "@/lib/auth/route-handler";
import { resetMemberPassword } from "@/lib/services/reset-member-password";

/**
 * POST /api/admin/members/{userId}/password — resets that member's password
 * to a random temporary one, answered once ({"temporaryPassword"}): it only
 * lets them choose a new password at their next sign-in. Their sessions end.
 */
export const POST = withAdminRoute<{ id: string }>(async (_request, { db, session, params }) => {
  const result = await resetMemberPassword(db, { organizationId: session.organizationId, userId: params.id, resetBy: session.userId });
  return Response.json(result, { headers: { "cache-control": "no-store" } });
});
