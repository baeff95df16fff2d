import { withAdminRoute } from "@/lib/auth/route-handler";
import { forgetLearnedLayout } from "@/lib/services";

/** DELETE /api/admin/layouts/{id} — forgets a learned layout of the caller's organization (audited); any other id is 404. */
export const DELETE = withAdminRoute<{ id: string }>(async (_request, { db, session, params }) => {
  const forgotten = await forgetLearnedLayout(db, { organizationId: session.organizationId, userId: session.userId, layoutId: params.id });
  if (!forgotten) return Response.json({ detail: "No learned layout with this id in your organization." }, { status: 404 });
  return Response.json({ id: params.id, status: "forgotten" });
});
