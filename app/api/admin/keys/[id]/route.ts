import { withAdminRoute } from "@/lib/auth/route-handler";
import { revokeApiKey } from "@/lib/services";

/** DELETE /api/admin/keys/{id} — revokes an active key of the caller's organization; any other id is 404. */
export const DELETE = withAdminRoute<{ id: string }>(async (_request, { db, session, params }) => {
  const revoked = await revokeApiKey(db, { organizationId: session.organizationId, keyId: params.id, revokedBy: session.userId });
  if (!revoked) return Response.json({ detail: "No active API key with this id in your organization." }, { status: 404 });
  return Response.json({ id: params.id, status: "revoked" });
});
