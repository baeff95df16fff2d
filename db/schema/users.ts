import { sql } from "drizzle-orm";
import { boolean, check, pgTable, text, timestamp } from "drizzle-orm/pg-core";

/** A person who signs in to the web app; the password is stored only as an argon2id hash. */
export const users = pgTable(
  "users",
  {
    id: text("id").primaryKey(),
    email: text("email").notNull().unique(),
    passwordHash: text("password_hash").notNull(),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
    /**
     * "Sign out everywhere": every session signed in before this moment is
     * refused (session tokens are stateless, so their ids cannot be listed).
     */
    sessionsRevokedAt: timestamp("sessions_revoked_at", { withTimezone: true }),
    /**
     * Set by an admin's or operator's password reset: the temporary password
     * only lets the person choose a new one at sign-in, never open a session.
     */
    passwordChangeRequired: boolean("password_change_required").notNull().default(false),
  },
  // Lower-casing in the database too means a unique email can never exist twice in two cases.
  (t) => [check("users_email_lowercase", sql`${t.email} = lower(${t.email})`)],
);

export type User = typeof users.$inferSelect;
