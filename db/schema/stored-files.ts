import { sql } from "drizzle-orm";
import { char, check, customType, index, integer, pgTable, primaryKey, text, timestamp } from "drizzle-orm/pg-core";
import { organizations } from "./organizations";

const bytea = customType<{ data: Uint8Array; driverData: Uint8Array }>({
  dataType: () => "bytea",
  // pg hands back a Buffer and PGlite a Uint8Array: both are Uint8Array views.
  fromDriver: (value) => new Uint8Array(value.buffer, value.byteOffset, value.byteLength),
});

/**
 * One stored file's record (the default FileStore keeps the bytes in the
 * database, in document_chunks). An upload streams its chunks in before the
 * request that sent it is accepted: until the transaction that accepts it
 * (its job, or its set file) marks it `received_at`, it is an upload in
 * progress, and one left unreceived long after it began belongs to a request
 * that died mid-body (sweepAbandonedUploads removes it, chunks and all).
 */
export const storedFiles = pgTable(
  "stored_files",
  {
    storageKey: text("storage_key").primaryKey(),
    organizationId: text("organization_id")
      .notNull()
      .references(() => organizations.id),
    /** The file's length and SHA-256, known once its last chunk is written; the reader checks the chunks against them. */
    sizeBytes: integer("size_bytes"),
    sha256: char("sha256", { length: 64 }),
    /** Set in the transaction that accepts the upload; null while its body is still arriving. */
    receivedAt: timestamp("received_at", { withTimezone: true }),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    // The sweep looks for uploads never received, oldest first.
    index("stored_files_unreceived_idx").on(t.createdAt).where(sql`${t.receivedAt} IS NULL`),
    check("stored_files_sha256_hex", sql`${t.sha256} ~ '^[0-9a-f]{64}$'`),
  ],
);

/**
 * A stored file's bytes in fixed-size pieces (STORED_FILE_CHUNK_BYTES, the
 * last one shorter), written as the upload's body arrives: no process holds
 * a whole upload to store it. Deleting the file's record deletes its chunks.
 */
export const documentChunks = pgTable(
  "document_chunks",
  {
    storageKey: text("storage_key")
      .notNull()
      .references(() => storedFiles.storageKey, { onDelete: "cascade" }),
    organizationId: text("organization_id")
      .notNull()
      .references(() => organizations.id),
    /** 0-based position of the chunk in the file. */
    chunkIndex: integer("chunk_index").notNull(),
    bytes: bytea("bytes").notNull(),
  },
  (t) => [primaryKey({ columns: [t.storageKey, t.chunkIndex] }), check("document_chunks_index_nonnegative", sql`${t.chunkIndex} >= 0`)],
);

export type StoredFileRow = typeof storedFiles.$inferSelect;
