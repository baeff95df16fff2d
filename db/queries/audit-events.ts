import { desc, eq } from "drizzle-orm";
import type { Db } from "../client";
import { auditEvents, type AuditEvent } from "../schema";

export interface NewAuditEvent {
  organizationId: string | null;
  actor: string;
  action: string;
  target: string | null;
  detail?: Record<string, unknown>;
}

export async function insertAuditEvent(db: Db, event: NewAuditEvent): Promise<void> {
  await db.insert(auditEvents).values({ ...event, detail: event.detail ?? {} });
}

/** Newest first. */
export async function listAuditEvents(
  db: Db,
  params: { organizationId: string; limit?: number },
): Promise<AuditEvent[]> {
  return db
    .select()
    .from(auditEvents)
    .where(eq(auditEvents.organizationId, params.organizationId))
    .orderBy(desc(auditEvents.id))
    .limit(params.limit ?? 100);
}
