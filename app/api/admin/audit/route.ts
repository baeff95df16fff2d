import { listAuditEvents } from "@/db/queries/audit-events";
import { withAdminRoute } from "@/lib/auth/route-handler";
import { listMembers } from "@/lib/services/list-members";

/** How many of the newest events the admin page shows. */
const AUDIT_PAGE_SIZE = 100;

/** GET /api/admin/audit — the organization's newest security events, actors named by e-mail where known. */
export const GET = withAdminRoute(async (_request, { db, session }) => {
  const { organizationId } = session;
  const [events, members] = await Promise.all([
    listAuditEvents(db, { organizationId, limit: AUDIT_PAGE_SIZE }),
    listMembers(db, { organizationId }),
  ]);
  const emailOf = new Map(members.map((member) => [member.userId, member.email]));
  return Response.json({
    events: events.map((event) => ({
      id: event.id,
      action: event.action,
      actor: event.actor,
      actorEmail: emailOf.get(event.actor) ?? null,
      target: event.target,
      targetEmail: event.target ? (emailOf.get(event.target) ?? null) : null,
      detail: event.detail,
      createdAt: event.createdAt,
    })),
  });
});
