import { and, asc, eq, inArray, sql } from "drizzle-orm";
import type { Db } from "../client";
import { setFiles, type SetFileRow, type SetFileStatus } from "../schema";

export type NewSetFileRow = typeof setFiles.$inferInsert & { id: string; organizationId: string; setId: string };

/** A file without its pages: what lists and status polls read. */
export type SetFileSummary = Omit<SetFileRow, "pages">;

const SUMMARY_COLUMNS = {
  id: setFiles.id,
  setId: setFiles.setId,
  organizationId: setFiles.organizationId,
  fileName: setFiles.fileName,
  sizeBytes: setFiles.sizeBytes,
  sha256: setFiles.sha256,
  format: setFiles.format,
  storageKey: setFiles.storageKey,
  status: setFiles.status,
  errorDetail: setFiles.errorDetail,
  pageCount: setFiles.pageCount,
  analysisId: setFiles.analysisId,
  createdAt: setFiles.createdAt,
};

export async function insertSetFile(db: Db, values: NewSetFileRow): Promise<SetFileSummary> {
  const [row] = await db.insert(setFiles).values(values).returning(SUMMARY_COLUMNS);
  if (!row) throw new Error("insert into set_files returned no row");
  return row;
}

/** Files of a set in upload order, without their pages. */
export async function listSetFiles(db: Db, params: { organizationId: string; setId: string }): Promise<SetFileSummary[]> {
  return db
    .select(SUMMARY_COLUMNS)
    .from(setFiles)
    .where(and(eq(setFiles.organizationId, params.organizationId), eq(setFiles.setId, params.setId)))
    .orderBy(asc(setFiles.createdAt), asc(setFiles.id));
}

/** The one file of one set of one organization: every lookup of a single file is scoped by all three. */
function fileOfSet(params: { organizationId: string; setId: string; fileId: string }) {
  return and(eq(setFiles.organizationId, params.organizationId), eq(setFiles.setId, params.setId), eq(setFiles.id, params.fileId));
}

/** One file of one set, pages included. */
export async function findSetFile(
  db: Db,
  params: { organizationId: string; setId: string; fileId: string },
): Promise<SetFileRow | undefined> {
  const [row] = await db
    .select()
    .from(setFiles)
    .where(fileOfSet(params))
    .limit(1);
  return row;
}

/** The pages of the given files (the set view reads them for page sizes and the examination's clause text). */
export async function listSetFilePages(
  db: Db,
  params: { organizationId: string; fileIds: string[] },
): Promise<{ id: string; pages: unknown }[]> {
  if (params.fileIds.length === 0) return [];
  return db
    .select({ id: setFiles.id, pages: setFiles.pages })
    .from(setFiles)
    .where(and(eq(setFiles.organizationId, params.organizationId), inArray(setFiles.id, params.fileIds)));
}

export interface SetFileUpdate {
  status: SetFileStatus;
  errorDetail?: string | null;
  pageCount?: number | null;
  analysisId?: string | null;
  pages?: unknown;
}

export async function updateSetFile(
  db: Db,
  params: { organizationId: string; fileId: string },
  values: SetFileUpdate,
): Promise<void> {
  await db
    .update(setFiles)
    .set(values)
    .where(and(eq(setFiles.organizationId, params.organizationId), eq(setFiles.id, params.fileId)));
}

/** Storage keys and analyses of a set's files, read before the set is deleted. */
export async function listSetFileReferences(
  db: Db,
  params: { organizationId: string; setId: string },
): Promise<{ storageKey: string; analysisId: string | null }[]> {
  return db
    .select({ storageKey: setFiles.storageKey, analysisId: setFiles.analysisId })
    .from(setFiles)
    .where(and(eq(setFiles.organizationId, params.organizationId), eq(setFiles.setId, params.setId)));
}

/** Where one file's bytes are stored, without its pages. */
export async function findSetFileStorage(
  db: Db,
  params: { organizationId: string; setId: string; fileId: string },
): Promise<{ storageKey: string; format: string; fileName: string } | undefined> {
  const [row] = await db
    .select({ storageKey: setFiles.storageKey, format: setFiles.format, fileName: setFiles.fileName })
    .from(setFiles)
    .where(fileOfSet(params))
    .limit(1);
  return row;
}

/** Class of the advisory locks that make an organization's uploads count its storage one at a time (the second key is the organization). */
const STORAGE_LOCK_CLASS = 730_512;

/** Held until the transaction ends: two uploads of one organization cannot both fit its last free storage. */
export async function lockOrganizationStorage(db: Db, params: { organizationId: string }): Promise<void> {
  await db.execute(sql`SELECT pg_advisory_xact_lock(${STORAGE_LOCK_CLASS}, hashtext(${params.organizationId}))`);
}

/** Bytes of every file the organization keeps in its document sets. */
export async function sumSetFileBytes(db: Db, params: { organizationId: string }): Promise<number> {
  const [row] = await db
    .select({ bytes: sql<string | null>`sum(${setFiles.sizeBytes})` })
    .from(setFiles)
    .where(eq(setFiles.organizationId, params.organizationId));
  return Number(row?.bytes ?? 0);
}
