import { withAdminRoute } from "@/lib/auth/route-handler";
import { listLearnedLayoutSummaries } from "@/lib/services";

/** GET /api/admin/layouts — the layouts the organization's checkers taught, with their fields and where each was taught. */
export const GET = withAdminRoute(async (_request, { db, session }) => {
  return Response.json({ layouts: await listLearnedLayoutSummaries(db, { organizationId: session.organizationId, userId: session.userId }) });
});
