import { withAdminRoute } from "@/lib/auth/route-handler";
// Imported by file, not from the services index: they derive secrets (server-only), and the CLIs import the index.
import { describeWebhookSecret } from "@/lib/services/describe-webhook-secret";
import { rotateWebhookSecret } from "@/lib/services/rotate-webhook-secret";

/** GET /api/admin/webhook-secret — whether the organization has a webhook secret, its start and date; never the secret. */
export const GET = withAdminRoute(async (_request, { db, session }) => {
  return Response.json(await describeWebhookSecret(db, { organizationId: session.organizationId, userId: session.userId }));
});

/** POST /api/admin/webhook-secret — a new secret (the old one stops signing); the secret is in this response and nowhere else, ever. */
export const POST = withAdminRoute(async (_request, { db, session }) => {
  const { secret, start, createdAt } = await rotateWebhookSecret(db, { organizationId: session.organizationId, rotatedBy: session.userId });
  return Response.json({ secret, start, createdAt }, { status: 201 });
});
