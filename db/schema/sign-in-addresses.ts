import { pgTable, primaryKey, text, timestamp } from "drizzle-orm/pg-core";
import { users } from "./users";

/**
 * Addresses from which a user has signed in successfully. The account-wide
 * sign-in throttle (lib/auth/login-throttle) never applies to them, so
 * failures sent from elsewhere cannot lock the owner out of their account.
 */
export const signInAddresses = pgTable(
  "sign_in_addresses",
  {
    userId: text("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    address: text("address").notNull(),
    lastSignedInAt: timestamp("last_signed_in_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [primaryKey({ columns: [t.userId, t.address] })],
);
