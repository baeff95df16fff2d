import type { Db } from "@/db/client";
import { findWebhookSecret } from "@/db/queries/webhooks";
import { requireAdmin } from "./authorize";

/** What an admin may see of the webhook secret once it was shown: that it exists, its start and when it was made. */
export interface WebhookSecretSummary {
  configured: boolean;
  start: string | null;
  createdAt: Date | null;
}

export async function describeWebhookSecret(db: Db, params: { organizationId: string; userId: string }): Promise<WebhookSecretSummary> {
  await requireAdmin(db, params);
  const row = await findWebhookSecret(db, params);
  return { configured: row !== undefined, start: row?.start ?? null, createdAt: row?.createdAt ?? null };
}
