import { sql } from "drizzle-orm";
import { char, check, date, index, integer, jsonb, pgEnum, pgTable, text, timestamp } from "drizzle-orm/pg-core";
import { analyses } from "./analyses";
import { organizations } from "./organizations";
import { users } from "./users";

/**
 * A presentation as the web app holds it: a named set of uploaded files,
 * analysed one by one and examined together at the presentation date.
 */
export const documentSets = pgTable(
  "document_sets",
  {
    id: text("id").primaryKey(),
    organizationId: text("organization_id")
      .notNull()
      .references(() => organizations.id),
    name: text("name").notNull(),
    /** YYYY-MM-DD; the examination uses today when it is not set. */
    presentationDate: date("presentation_date", { mode: "string" }),
    createdBy: text("created_by").references(() => users.id),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index("document_sets_organization_idx").on(t.organizationId, t.createdAt)],
);

export const setFileStatus = pgEnum("set_file_status", ["uploaded", "analyzing", "done", "failed"]);
export type SetFileStatus = (typeof setFileStatus.enumValues)[number];

/** One uploaded file of a set, its analysis state and (once read) its pages of positioned text. */
export const setFiles = pgTable(
  "set_files",
  {
    id: text("id").primaryKey(),
    setId: text("set_id")
      .notNull()
      .references(() => documentSets.id, { onDelete: "cascade" }),
    organizationId: text("organization_id")
      .notNull()
      .references(() => organizations.id),
    fileName: text("file_name").notNull(),
    sizeBytes: integer("size_bytes").notNull(),
    sha256: char("sha256", { length: 64 }).notNull(),
    /** The format sniffed from the bytes (pdf, docx, eml, png, jpeg, tiff, webp). */
    format: text("format").notNull(),
    storageKey: text("storage_key").notNull(),
    status: setFileStatus("status").notNull().default("uploaded"),
    /** Why the analysis failed, in words for the user. */
    errorDetail: text("error_detail"),
    pageCount: integer("page_count"),
    analysisId: text("analysis_id").references(() => analyses.id, { onDelete: "set null" }),
    /** The ingested pages (Page[]): corrections re-extract from them without reading the file again. */
    pages: jsonb("pages"),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    index("set_files_set_idx").on(t.setId, t.createdAt),
    index("set_files_organization_idx").on(t.organizationId),
    check("set_files_sha256_hex", sql`${t.sha256} ~ '^[0-9a-f]{64}$'`),
  ],
);

export const splitCorrectionAction = pgEnum("split_correction_action", ["retype", "split", "merge", "reset"]);
export type SplitCorrectionAction = (typeof splitCorrectionAction.enumValues)[number];

/**
 * A hand correction of a file's splits. Rows are kept in order (the history);
 * the newest one's `result` is the file's split analysis from then on.
 */
export const splitCorrections = pgTable(
  "split_corrections",
  {
    id: text("id").primaryKey(),
    setFileId: text("set_file_id")
      .notNull()
      .references(() => setFiles.id, { onDelete: "cascade" }),
    organizationId: text("organization_id")
      .notNull()
      .references(() => organizations.id),
    action: splitCorrectionAction("action").notNull(),
    /** 0-based index of the split acted on (retype, merge), in the layout before the correction. */
    splitIndex: integer("split_index"),
    /** 1-based page where a new document starts (split). */
    page: integer("page"),
    /** The type given by hand (retype), a schema id such as `commercial_invoice`. */
    documentType: text("document_type"),
    /** The corrected boundaries: `[{ document_type, pages }]` per split. */
    layout: jsonb("layout").notNull(),
    /** The corrected splits re-extracted (SplitResult[] with evidence). */
    result: jsonb("result").notNull(),
    createdBy: text("created_by").references(() => users.id),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index("split_corrections_file_idx").on(t.setFileId, t.createdAt)],
);

export type DocumentSetRow = typeof documentSets.$inferSelect;
export type SetFileRow = typeof setFiles.$inferSelect;
export type SplitCorrectionRow = typeof splitCorrections.$inferSelect;
