import { and, count, desc, eq, inArray, sql } from "drizzle-orm";
import type { Db } from "../client";
import { analyses, documentSets, setFiles, type DocumentSetRow } from "../schema";

/** Every function takes the organization id: a set of another organization is simply not found. */
export type NewDocumentSetRow = typeof documentSets.$inferInsert & { id: string; organizationId: string };

export async function insertDocumentSet(db: Db, values: NewDocumentSetRow): Promise<DocumentSetRow> {
  const [row] = await db.insert(documentSets).values(values).returning();
  if (!row) throw new Error("insert into document_sets returned no row");
  return row;
}

export async function findDocumentSet(
  db: Db,
  params: { organizationId: string; setId: string },
): Promise<DocumentSetRow | undefined> {
  const [row] = await db
    .select()
    .from(documentSets)
    .where(and(eq(documentSets.organizationId, params.organizationId), eq(documentSets.id, params.setId)))
    .limit(1);
  return row;
}

export interface DocumentSetSummaryRow extends DocumentSetRow {
  fileCount: number;
  pageCount: number;
  analyzingCount: number;
  failedCount: number;
}

/** Newest first, with per-set file counts for the list page. */
export async function listDocumentSets(
  db: Db,
  params: { organizationId: string; limit: number },
): Promise<DocumentSetSummaryRow[]> {
  const rows = await db
    .select({
      id: documentSets.id,
      organizationId: documentSets.organizationId,
      name: documentSets.name,
      presentationDate: documentSets.presentationDate,
      createdBy: documentSets.createdBy,
      createdAt: documentSets.createdAt,
      fileCount: count(setFiles.id),
      pageCount: sql<string>`coalesce(sum(${setFiles.pageCount}), 0)`,
      analyzingCount: sql<string>`count(*) filter (where ${setFiles.status} in ('uploaded', 'analyzing'))`,
      failedCount: sql<string>`count(*) filter (where ${setFiles.status} = 'failed')`,
    })
    .from(documentSets)
    .leftJoin(setFiles, eq(setFiles.setId, documentSets.id))
    .where(eq(documentSets.organizationId, params.organizationId))
    .groupBy(documentSets.id)
    .orderBy(desc(documentSets.createdAt), documentSets.id)
    .limit(params.limit);
  // Aggregates come back as strings from pg and numbers from PGlite.
  return rows.map((r) => ({
    ...r,
    fileCount: Number(r.fileCount),
    pageCount: Number(r.pageCount),
    analyzingCount: Number(r.analyzingCount),
    failedCount: Number(r.failedCount),
  }));
}

/** Deletes the set (its files and corrections cascade); false when the organization has no such set. */
export async function deleteDocumentSet(db: Db, params: { organizationId: string; setId: string }): Promise<boolean> {
  const deleted = await db
    .delete(documentSets)
    .where(and(eq(documentSets.organizationId, params.organizationId), eq(documentSets.id, params.setId)))
    .returning({ id: documentSets.id });
  return deleted.length > 0;
}

/** The analyses a set's files produced go with the set: they hold the same documents' contents. */
export async function deleteAnalysesOfSet(db: Db, params: { organizationId: string; analysisIds: string[] }): Promise<void> {
  if (params.analysisIds.length === 0) return;
  await db
    .delete(analyses)
    .where(and(eq(analyses.organizationId, params.organizationId), inArray(analyses.id, params.analysisIds)));
}
