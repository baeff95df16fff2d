import { pgEnum, pgTable, primaryKey, text, timestamp } from "drizzle-orm/pg-core";
import { organizations } from "./organizations";
import { users } from "./users";

export const membershipRole = pgEnum("membership_role", ["admin", "member"]);
export type MembershipRole = (typeof membershipRole.enumValues)[number];

/** Which users belong to which organization, and with what role. */
export const memberships = pgTable(
  "memberships",
  {
    userId: text("user_id")
      .notNull()
      .references(() => users.id),
    organizationId: text("organization_id")
      .notNull()
      .references(() => organizations.id),
    role: membershipRole("role").notNull(),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
    /**
     * Disabled by an admin of this organization: the person can neither sign
     * in to it nor use a session in it (next request), and can be re-enabled.
     * Per membership, so one organization's admin never locks a person out of another.
     */
    disabledAt: timestamp("disabled_at", { withTimezone: true }),
  },
  (t) => [primaryKey({ columns: [t.userId, t.organizationId] })],
);

export type Membership = typeof memberships.$inferSelect;
