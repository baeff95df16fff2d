import { createHash } from "node:crypto";
import { and, asc, eq, gte, inArray, isNull, lt, sql, type SQL, type WithSubquery } from "drizzle-orm";
import type { Db } from "../client";
import { documentChunks, storedFiles } from "../schema";

/**
 * Size of a stored file's chunks (the last one is shorter). An upload is
 * written a chunk at a time as its body arrives, so this, not the file's
 * size, bounds what the intake holds per upload; a reader fetches
 * READ_BATCH_CHUNKS at a time.
 */
export const STORED_FILE_CHUNK_BYTES = 2 ** 20;
/** Chunks fetched per statement when a file is read back (4 MiB). */
const READ_BATCH_CHUNKS = 4;

/**
 * Chunks travel to and from the database as hex text, turned into bytes by
 * the database (decode/encode) and by Buffer here: PGlite serializes a
 * Uint8Array parameter one byte at a time through JavaScript arrays and
 * strings (251 ms of CPU per MiB written, on the server's own thread, and
 * 80 ms per MiB read), where hex takes 22 ms and 6 ms. On `pg` it costs
 * twice the bytes on the wire, and nothing else: pg reads bytea as hex too.
 */
function hexOf(bytes: Uint8Array): SQL {
  return sql`decode(${Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString("hex")}, 'hex')`;
}

interface StoredFileKey {
  organizationId: string;
  storageKey: string;
}

/** A file's length and SHA-256, recorded with its last chunk: the reader checks the chunks against them. */
interface FileSeal {
  sizeBytes: number;
  sha256: string;
}

/**
 * Writes one chunk of an upload in progress (not received until the request
 * that sends it is accepted: markStoredFileReceived). The same statement
 * opens the file's record with its first chunk (`opens`) and seals it with its
 * last (`seal`), so an upload of N chunks costs N statements.
 */
export async function insertFileChunk(
  db: Db,
  chunk: StoredFileKey & { chunkIndex: number; bytes: Uint8Array; opens?: boolean; seal?: FileSeal },
): Promise<void> {
  const { organizationId, storageKey, seal } = chunk;
  const record = chunk.opens
    ? sql`WITH opened AS (INSERT INTO ${storedFiles} (storage_key, organization_id, size_bytes, sha256)
        VALUES (${storageKey}, ${organizationId}, ${seal?.sizeBytes ?? null}::integer, ${seal?.sha256 ?? null})) `
    : seal
      ? sql`WITH sealed AS (UPDATE ${storedFiles} SET size_bytes = ${seal.sizeBytes}::integer, sha256 = ${seal.sha256}
          WHERE organization_id = ${organizationId} AND storage_key = ${storageKey}) `
      : sql``;
  await db.execute(sql`${record}INSERT INTO ${documentChunks} (storage_key, organization_id, chunk_index, bytes)
    VALUES (${storageKey}, ${organizationId}, ${chunk.chunkIndex}::integer, ${hexOf(chunk.bytes)})`);
}

/** Records the length and SHA-256 of an upload that ended on a chunk's end (its last chunk written without them). */
export async function sealStoredFile(db: Db, file: StoredFileKey & FileSeal): Promise<void> {
  await db
    .update(storedFiles)
    .set({ sizeBytes: file.sizeBytes, sha256: file.sha256 })
    .where(and(eq(storedFiles.organizationId, file.organizationId), eq(storedFiles.storageKey, file.storageKey)));
}

/**
 * In the transaction that accepts an upload (its job or its set file): the
 * file is kept from now on. False when there is no such sealed file (swept,
 * or never completed), which the caller treats as an error.
 */
export async function markStoredFileReceived(tx: Db, key: StoredFileKey): Promise<boolean> {
  const rows = await tx
    .update(storedFiles)
    .set({ receivedAt: sql`now()` })
    .where(and(eq(storedFiles.organizationId, key.organizationId), eq(storedFiles.storageKey, key.storageKey), sql`${storedFiles.sha256} IS NOT NULL`))
    .returning({ storageKey: storedFiles.storageKey });
  return rows.length === 1;
}

/** Bytes in memory to keep as a file, received at once (sha256: their digest, when the caller has it already). */
export type ReceivedFile = StoredFileKey & { bytes: Uint8Array; sha256?: string };

/** The record and the chunks of a received file, as two inserts of one statement. */
function receivedFileInserts(file: ReceivedFile): { record: SQL; chunks: SQL } {
  const { organizationId, storageKey, bytes } = file;
  const sha256 = file.sha256 ?? createHash("sha256").update(bytes).digest("hex");
  const rows: SQL[] = [];
  // An empty file keeps one empty chunk, as the migration of older files does.
  for (let index = 0, offset = 0; offset < bytes.length || index === 0; index++, offset += STORED_FILE_CHUNK_BYTES) {
    rows.push(sql`(${storageKey}, ${organizationId}, ${index}::integer, ${hexOf(bytes.subarray(offset, offset + STORED_FILE_CHUNK_BYTES))})`);
  }
  return {
    record: sql`INSERT INTO ${storedFiles} (storage_key, organization_id, size_bytes, sha256, received_at)
      VALUES (${storageKey}, ${organizationId}, ${bytes.length}::integer, ${sha256}, now())`,
    chunks: sql`INSERT INTO ${documentChunks} (storage_key, organization_id, chunk_index, bytes) VALUES ${sql.join(rows, sql`, `)}`,
  };
}

/**
 * The inserts that keep bytes in memory as a received file, as CTEs for the
 * statement that accepts its job (acceptAnalysisJob): the file costs
 * no statement of its own. The chunks' foreign key is checked at the end of
 * that statement, when the record is in.
 */
export function receivedFileWrites(db: Db, file: ReceivedFile): WithSubquery[] {
  const { record, chunks } = receivedFileInserts(file);
  return [db.$with("received_file", {}).as(record), db.$with("received_chunks", {}).as(chunks)];
}

/** Stores bytes already in memory as a file, received at once, in one statement: call it inside the accepting transaction. */
export async function insertStoredFile(db: Db, file: ReceivedFile): Promise<void> {
  const { record, chunks } = receivedFileInserts(file);
  await db.execute(sql`WITH received_file AS (${record}) ${chunks}`);
}

/** A stored file opened for reading: its recorded length, and its bytes as they are read. */
export interface OpenedStoredFile {
  sizeBytes: number;
  /**
   * The file's chunks in order, READ_BATCH_CHUNKS per statement as they are
   * consumed (never the whole file at once). Throws, after the chunk that
   * shows it, when the chunks do not give back the recorded length and
   * SHA-256 (a chunk lost or damaged).
   */
  chunks: AsyncIterable<Uint8Array>;
}

/** A stored file to read chunk by chunk; undefined when there is no such file (or its upload never completed). */
export async function openStoredFile(db: Db, key: StoredFileKey): Promise<OpenedStoredFile | undefined> {
  const [file] = await db
    .select({ sizeBytes: storedFiles.sizeBytes, sha256: storedFiles.sha256 })
    .from(storedFiles)
    .where(and(eq(storedFiles.organizationId, key.organizationId), eq(storedFiles.storageKey, key.storageKey)))
    .limit(1);
  if (!file || file.sizeBytes === null || file.sha256 === null) return undefined;
  return { sizeBytes: file.sizeBytes, chunks: verifiedChunks(db, key, { sizeBytes: file.sizeBytes, sha256: file.sha256 }) };
}

async function* verifiedChunks(db: Db, key: StoredFileKey, record: { sizeBytes: number; sha256: string }): AsyncGenerator<Uint8Array> {
  const hash = createHash("sha256");
  let offset = 0;
  for await (const chunk of storedFileChunks(db, key)) {
    offset += chunk.byteLength;
    if (offset > record.sizeBytes) throw new Error(`stored file ${key.storageKey} has more bytes than its recorded ${record.sizeBytes}`);
    hash.update(chunk);
    yield chunk;
  }
  if (offset !== record.sizeBytes || hash.digest("hex") !== record.sha256) {
    throw new Error(`stored file ${key.storageKey} does not match its record (${offset} of ${record.sizeBytes} bytes, or another digest)`);
  }
}

/**
 * A stored file's bytes, put back together into one buffer of its recorded
 * size (what a reader needs). Undefined when there is no such file; throws
 * as openStoredFile's chunks do.
 */
export async function readStoredFile(db: Db, key: StoredFileKey): Promise<Uint8Array | undefined> {
  const file = await openStoredFile(db, key);
  if (!file) return undefined;
  const bytes = new Uint8Array(file.sizeBytes);
  let offset = 0;
  for await (const chunk of file.chunks) {
    bytes.set(chunk, offset);
    offset += chunk.byteLength;
  }
  return bytes;
}

/** A stored file's chunks in order, READ_BATCH_CHUNKS per statement; each must follow the one before (a gap throws). */
async function* storedFileChunks(db: Db, key: StoredFileKey): AsyncGenerator<Uint8Array> {
  let next = 0;
  for (;;) {
    const rows = await db
      .select({ chunkIndex: documentChunks.chunkIndex, hex: sql<string>`encode(${documentChunks.bytes}, 'hex')` })
      .from(documentChunks)
      .where(
        and(
          eq(documentChunks.organizationId, key.organizationId),
          eq(documentChunks.storageKey, key.storageKey),
          gte(documentChunks.chunkIndex, next),
          lt(documentChunks.chunkIndex, next + READ_BATCH_CHUNKS),
        ),
      )
      .orderBy(asc(documentChunks.chunkIndex));
    for (const row of rows) {
      if (row.chunkIndex !== next) throw new Error(`stored file ${key.storageKey} lacks chunk ${next}`);
      next++;
      yield Buffer.from(row.hex, "hex");
    }
    if (rows.length < READ_BATCH_CHUNKS) return;
  }
}

/** Deletes stored files; their chunks go with them (ON DELETE CASCADE). */
export async function deleteStoredFiles(db: Db, params: { organizationId: string; storageKeys: string[] }): Promise<void> {
  if (params.storageKeys.length === 0) return;
  await db
    .delete(storedFiles)
    .where(and(eq(storedFiles.organizationId, params.organizationId), inArray(storedFiles.storageKey, params.storageKeys)));
}

/** Deletes, with their chunks, those of these files that no transaction has accepted (a refused or failed request's uploads). */
export async function deleteUnreceivedFiles(db: Db, params: { organizationId: string; storageKeys: string[] }): Promise<void> {
  if (params.storageKeys.length === 0) return;
  await db
    .delete(storedFiles)
    .where(and(eq(storedFiles.organizationId, params.organizationId), inArray(storedFiles.storageKey, params.storageKeys), isNull(storedFiles.receivedAt)));
}

/**
 * Deletes, with their chunks, the uploads that began more than `olderThanSeconds`
 * ago and were never received: their request died mid-body (a killed process
 * cannot clean up after itself). Every organization's: call it in the system
 * scope. Returns how many were removed.
 */
export async function deleteAbandonedUploads(db: Db, params: { olderThanSeconds: number }): Promise<number> {
  const rows = await db
    .delete(storedFiles)
    .where(and(isNull(storedFiles.receivedAt), lt(storedFiles.createdAt, sql`now() - make_interval(secs => ${params.olderThanSeconds})`)))
    .returning({ storageKey: storedFiles.storageKey });
  return rows.length;
}
