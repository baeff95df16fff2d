import { pgTable, text, timestamp } from "drizzle-orm/pg-core";

/**
 * GCRA state: one theoretical arrival time per bucket. Made UNLOGGED by a custom
 * migration (losing it in a crash only resets limits, and it is written on every request).
 */
export const rateLimits = pgTable("rate_limits", {
  bucket: text("bucket").primaryKey(),
  tat: timestamp("tat", { withTimezone: true }).notNull(),
});
