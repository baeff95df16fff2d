import { z } from "zod";
import type { Db } from "@/db/client";
import { insertAuditEvent } from "@/db/queries/audit-events";
import { upsertWebhookSecret } from "@/db/queries/webhooks";
import { newWebhookSalt, visibleStartOf, webhookSecretOf } from "@/lib/webhooks/secret";
import { requireAdmin } from "./authorize";
import { organizationIdSchema, parseInput } from "./validation";

const RotateWebhookSecretInput = z.object({
  organizationId: organizationIdSchema,
  rotatedBy: z.string().min(1, "rotatedBy is required"),
});

export interface RotatedWebhookSecret {
  /** The secret itself: show it once; it is never stored and never shown again. */
  secret: string;
  start: string;
  createdAt: Date;
}

/**
 * Creates the organization's webhook signing secret, or replaces it (the old
 * one stops signing at once). An admin only; audited without the secret.
 */
export async function rotateWebhookSecret(db: Db, input: { organizationId: string; rotatedBy: string }): Promise<RotatedWebhookSecret> {
  const params = parseInput(RotateWebhookSecretInput, input);
  return db.transaction(async (tx) => {
    await requireAdmin(tx, { organizationId: params.organizationId, userId: params.rotatedBy });
    const salt = newWebhookSalt();
    const secret = webhookSecretOf(params.organizationId, salt);
    const row = await upsertWebhookSecret(tx, { organizationId: params.organizationId, salt, start: visibleStartOf(secret), createdBy: params.rotatedBy });
    await insertAuditEvent(tx, {
      organizationId: params.organizationId,
      actor: params.rotatedBy,
      action: "webhook_secret.rotated",
      target: params.organizationId,
      detail: { start: row.start },
    });
    return { secret, start: row.start, createdAt: row.createdAt };
  });
}
