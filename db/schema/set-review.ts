import { index, integer, jsonb, pgEnum, pgTable, text, timestamp } from "drizzle-orm/pg-core";
import { documentSets, setFiles } from "./document-sets";
import { organizations } from "./organizations";
import { users } from "./users";

/**
 * A checker's corrections of extracted values. Rows are kept in order (the
 * history); per document and field the newest is in force. A document is
 * named by its file and its pages (not its split number): a split
 * correction that moves the document's pages leaves the value behind, since
 * the document it was read from no longer exists as it was.
 */
export const fieldCorrections = pgTable(
  "field_corrections",
  {
    id: text("id").primaryKey(),
    setFileId: text("set_file_id")
      .notNull()
      .references(() => setFiles.id, { onDelete: "cascade" }),
    organizationId: text("organization_id")
      .notNull()
      .references(() => organizations.id),
    /** The document's pages joined with commas ("3,4"): which split of the file the value belongs to. */
    pagesKey: text("pages_key").notNull(),
    /** A key of the document type's schema, e.g. `gross_weight_kg`. */
    field: text("field").notNull(),
    /** The corrected value, normalised as the engine writes it; null puts the engine's value back. */
    value: jsonb("value"),
    /** What the engine had read (absent when the value was added by hand). */
    original: jsonb("original"),
    createdBy: text("created_by").references(() => users.id),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index("field_corrections_file_idx").on(t.setFileId, t.createdAt)],
);

/** A document marked reviewed (or no longer reviewed): the newest row per document is in force. */
export const documentReviews = pgTable(
  "document_reviews",
  {
    id: text("id").primaryKey(),
    setFileId: text("set_file_id")
      .notNull()
      .references(() => setFiles.id, { onDelete: "cascade" }),
    organizationId: text("organization_id")
      .notNull()
      .references(() => organizations.id),
    pagesKey: text("pages_key").notNull(),
    reviewed: integer("reviewed").notNull(),
    createdBy: text("created_by").references(() => users.id),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index("document_reviews_file_idx").on(t.setFileId, t.createdAt)],
);

export const findingDecision = pgEnum("finding_decision", ["accept", "waive", "reopen"]);
export type FindingDecision = (typeof findingDecision.enumValues)[number];

/**
 * A checker's decision on a finding of a set's examination: accepted (the
 * discrepancy stands), waived (with a note saying why), or reopened. The
 * newest row per finding is in force; the rows are the history.
 */
export const findingDecisions = pgTable(
  "finding_decisions",
  {
    id: text("id").primaryKey(),
    setId: text("set_id")
      .notNull()
      .references(() => documentSets.id, { onDelete: "cascade" }),
    organizationId: text("organization_id")
      .notNull()
      .references(() => organizations.id),
    /** The finding's key: its rule, documents and fields (see lib/sets/finding-key.ts). */
    findingKey: text("finding_key").notNull(),
    decision: findingDecision("decision").notNull(),
    note: text("note"),
    createdBy: text("created_by").references(() => users.id),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index("finding_decisions_set_idx").on(t.setId, t.createdAt)],
);

export type FieldCorrectionRow = typeof fieldCorrections.$inferSelect;
export type DocumentReviewRow = typeof documentReviews.$inferSelect;
export type FindingDecisionRow = typeof findingDecisions.$inferSelect;
