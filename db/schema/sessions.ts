import { index, pgTable, text, timestamp } from "drizzle-orm/pg-core";
import { users } from "./users";

/**
 * Browser sessions ended before their token expires (sign-out). Session tokens
 * are encrypted JWTs that would otherwise stay valid for their whole lifetime
 * (ASVS 7.4.1); the guards refuse a token whose session id is listed here.
 * Rows are dropped once the token they name has expired anyway.
 */
export const revokedSessions = pgTable(
  "revoked_sessions",
  {
    sessionId: text("session_id").primaryKey(),
    userId: text("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    revokedAt: timestamp("revoked_at", { withTimezone: true }).notNull().defaultNow(),
    /** When the revoked token would have expired; after it the row is not needed. */
    expiresAt: timestamp("expires_at", { withTimezone: true }).notNull(),
  },
  (t) => [index("revoked_sessions_expires_idx").on(t.expiresAt)],
);
