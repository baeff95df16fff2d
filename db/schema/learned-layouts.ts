import { index, jsonb, pgTable, text, timestamp } from "drizzle-orm/pg-core";
import { organizations } from "./organizations";
import { users } from "./users";

/**
 * A layout an organization's checkers taught by correcting a value on one of
 * its documents: the document type, the issuer and the labels' places (the
 * fingerprint, from the page geometry, never the file's bytes), and per field
 * where its value sits and where it was taught. The next document of the
 * layout reads those fields there (the engine's LayoutHint).
 */
export const learnedLayouts = pgTable(
  "learned_layouts",
  {
    id: text("id").primaryKey(),
    organizationId: text("organization_id")
      .notNull()
      .references(() => organizations.id),
    /** A schema id, e.g. `commercial_invoice`. */
    documentType: text("document_type").notNull(),
    /** The issuer's name as the engine's issuerKeyOf writes it ("" when none was read). */
    issuer: text("issuer").notNull(),
    /** A short name of the fingerprint, to tell layouts apart on screen. */
    fingerprintId: text("fingerprint_id").notNull(),
    /** The labels and their places (FingerprintLine[]). */
    fingerprint: jsonb("fingerprint").notNull(),
    /** Per field: `{ place, source: { setId, setName, fileId, fileName, pages }, taughtBy, taughtAt }` (LearnedField). */
    fields: jsonb("fields").notNull(),
    createdBy: text("created_by").references(() => users.id, { onDelete: "set null" }),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp("updated_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index("learned_layouts_organization_idx").on(t.organizationId, t.documentType)],
);

export type LearnedLayoutRow = typeof learnedLayouts.$inferSelect;
