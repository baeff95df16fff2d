import { and, asc, eq } from "drizzle-orm";
import type { Db } from "../client";
import { webhookAttempts, webhookSecrets, type WebhookAttemptRow, type WebhookSecretRow } from "../schema";

export async function findWebhookSecret(db: Db, params: { organizationId: string }): Promise<WebhookSecretRow | undefined> {
  const [row] = await db.select().from(webhookSecrets).where(eq(webhookSecrets.organizationId, params.organizationId)).limit(1);
  return row;
}

/** Sets the organization's salt (a first secret, or a rotation replacing the last one). */
export async function upsertWebhookSecret(
  db: Db,
  values: { organizationId: string; salt: string; start: string; createdBy: string | null },
): Promise<WebhookSecretRow> {
  const [row] = await db
    .insert(webhookSecrets)
    .values(values)
    .onConflictDoUpdate({
      target: webhookSecrets.organizationId,
      set: { salt: values.salt, start: values.start, createdBy: values.createdBy, createdAt: new Date() },
    })
    .returning();
  if (!row) throw new Error("upsert into webhook_secrets returned no row");
  return row;
}

export async function insertWebhookAttempt(db: Db, values: typeof webhookAttempts.$inferInsert): Promise<void> {
  await db.insert(webhookAttempts).values(values);
}

/** Attempts at one analysis's webhook, oldest first. */
export async function listWebhookAttempts(db: Db, params: { organizationId: string; analysisId: string }): Promise<WebhookAttemptRow[]> {
  return db
    .select()
    .from(webhookAttempts)
    .where(and(eq(webhookAttempts.organizationId, params.organizationId), eq(webhookAttempts.analysisId, params.analysisId)))
    .orderBy(asc(webhookAttempts.attempt));
}
