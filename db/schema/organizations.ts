import { pgTable, text, timestamp } from "drizzle-orm/pg-core";

/** A customer account; every key, member and analysis belongs to exactly one. */
export const organizations = pgTable("organizations", {
  id: text("id").primaryKey(),
  slug: text("slug").notNull().unique(),
  name: text("name").notNull(),
  createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
});

export type Organization = typeof organizations.$inferSelect;
