import { index, integer, pgTable, text, timestamp } from "drizzle-orm/pg-core";
import { analysisJobs } from "./analysis-jobs";
import { organizations } from "./organizations";
import { users } from "./users";

/**
 * An organization's webhook signing secret, as far as it is stored: the secret
 * itself never is. It is HMAC-SHA-256 of the server's pepper (a secret kept
 * outside the database), the organization and this random salt, so a copy of
 * the database alone cannot sign a webhook. Rotating draws a new salt.
 */
export const webhookSecrets = pgTable("webhook_secrets", {
  organizationId: text("organization_id")
    .primaryKey()
    .references(() => organizations.id),
  salt: text("salt").notNull(),
  /** The secret's first characters, so an admin can tell which secret a receiver holds. */
  start: text("start").notNull(),
  createdBy: text("created_by").references(() => users.id),
  createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
});

/** One try at posting an analysis's outcome to its callback_url: what the receiver answered, or why nothing was sent. */
export const webhookAttempts = pgTable(
  "webhook_attempts",
  {
    id: text("id").primaryKey(),
    organizationId: text("organization_id")
      .notNull()
      .references(() => organizations.id),
    analysisId: text("analysis_id")
      .notNull()
      .references(() => analysisJobs.id, { onDelete: "cascade" }),
    attempt: integer("attempt").notNull(),
    /** The receiver's HTTP status; null when no answer came (refused address, timeout, connection error). */
    statusCode: integer("status_code"),
    error: text("error"),
    durationMs: integer("duration_ms").notNull(),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index("webhook_attempts_analysis_idx").on(t.analysisId)],
);

export type WebhookSecretRow = typeof webhookSecrets.$inferSelect;
export type WebhookAttemptRow = typeof webhookAttempts.$inferSelect;
