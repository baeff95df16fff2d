import { bigint, index, jsonb, pgTable, text, timestamp } from "drizzle-orm/pg-core";
import { organizations } from "./organizations";

/**
 * Append-only trail of security-relevant actions (ASVS 16.2.5). `detail` never
 * holds a secret: no key, no password, no digest.
 */
export const auditEvents = pgTable(
  "audit_events",
  {
    id: bigint("id", { mode: "number" }).primaryKey().generatedAlwaysAsIdentity(),
    organizationId: text("organization_id").references(() => organizations.id),
    /** A key id, a user id, or 'operator' for the CLI. */
    actor: text("actor").notNull(),
    action: text("action").notNull(),
    target: text("target"),
    detail: jsonb("detail").$type<Record<string, unknown>>().notNull().default({}),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index("audit_events_organization_idx").on(t.organizationId, t.createdAt)],
);

export type AuditEvent = typeof auditEvents.$inferSelect;
