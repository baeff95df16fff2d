import { sql } from "drizzle-orm";
import { char, check, index, pgEnum, pgTable, text, timestamp } from "drizzle-orm/pg-core";
import { organizations } from "./organizations";
import { users } from "./users";

export const apiKeyKind = pgEnum("api_key_kind", ["production", "sandbox"]);
export type ApiKeyKind = (typeof apiKeyKind.enumValues)[number];

/**
 * Issued API keys. The plaintext key is never stored: only its SHA-256 digest
 * (looked up through the unique index) and a short visible `start` for display.
 */
export const apiKeys = pgTable(
  "api_keys",
  {
    id: text("id").primaryKey(),
    organizationId: text("organization_id")
      .notNull()
      .references(() => organizations.id),
    kind: apiKeyKind("kind").notNull(),
    name: text("name"),
    digest: char("digest", { length: 64 }).notNull().unique(),
    start: text("start").notNull(),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
    expiresAt: timestamp("expires_at", { withTimezone: true }),
    revokedAt: timestamp("revoked_at", { withTimezone: true }),
    lastUsedAt: timestamp("last_used_at", { withTimezone: true }),
    createdBy: text("created_by").references(() => users.id),
  },
  (t) => [
    index("api_keys_organization_idx").on(t.organizationId, t.createdAt),
    check("api_keys_digest_hex", sql`${t.digest} ~ '^[0-9a-f]{64}$'`),
    // The spec's rule, held by the database: sandbox keys live exactly 4 weeks (672 h, immune to DST), production keys forever.
    check(
      "api_keys_expiry_by_kind",
      sql`(${t.kind} = 'sandbox' AND ${t.expiresAt} IS NOT NULL AND ${t.expiresAt} = ${t.createdAt} + interval '672 hours')
        OR (${t.kind} = 'production' AND ${t.expiresAt} IS NULL)`,
    ),
  ],
);

export type ApiKeyRow = typeof apiKeys.$inferSelect;
