import { char, index, integer, jsonb, pgTable, text, timestamp } from "drizzle-orm/pg-core";
import { apiKeys } from "./api-keys";
import { organizations } from "./organizations";
import { users } from "./users";

/** One analysed upload: what came in (name, size, hash) and the result returned. */
export const analyses = pgTable(
  "analyses",
  {
    id: text("id").primaryKey(),
    organizationId: text("organization_id")
      .notNull()
      .references(() => organizations.id),
    apiKeyId: text("api_key_id").references(() => apiKeys.id),
    userId: text("user_id").references(() => users.id),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
    inputName: text("input_name"),
    inputBytes: integer("input_bytes").notNull(),
    sha256: char("sha256", { length: 64 }).notNull(),
    pageCount: integer("page_count").notNull(),
    result: jsonb("result").notNull(),
    /** Each page's text ({number, text, ocr}), so that an examination by id reads the clauses the file carried. */
    pageText: jsonb("page_text"),
    durationMs: integer("duration_ms").notNull(),
  },
  (t) => [index("analyses_organization_idx").on(t.organizationId, t.createdAt)],
);

export type AnalysisRow = typeof analyses.$inferSelect;
