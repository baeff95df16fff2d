import { and, asc, desc, eq, inArray } from "drizzle-orm";
import type { Db } from "../client";
import { splitCorrections, type SplitCorrectionRow } from "../schema";

export type NewSplitCorrectionRow = typeof splitCorrections.$inferInsert & { id: string; organizationId: string; setFileId: string };

export async function insertSplitCorrection(db: Db, values: NewSplitCorrectionRow): Promise<SplitCorrectionRow> {
  const [row] = await db.insert(splitCorrections).values(values).returning();
  if (!row) throw new Error("insert into split_corrections returned no row");
  return row;
}

/** Every correction of the given files, oldest first (the newest per file is in force). */
export async function listSplitCorrections(
  db: Db,
  params: { organizationId: string; fileIds: string[] },
): Promise<SplitCorrectionRow[]> {
  if (params.fileIds.length === 0) return [];
  return db
    .select()
    .from(splitCorrections)
    .where(and(eq(splitCorrections.organizationId, params.organizationId), inArray(splitCorrections.setFileId, params.fileIds)))
    .orderBy(asc(splitCorrections.createdAt), asc(splitCorrections.id));
}

/** The correction in force for one file, if any. */
export async function findLatestSplitCorrection(
  db: Db,
  params: { organizationId: string; fileId: string },
): Promise<SplitCorrectionRow | undefined> {
  const [row] = await db
    .select()
    .from(splitCorrections)
    .where(and(eq(splitCorrections.organizationId, params.organizationId), eq(splitCorrections.setFileId, params.fileId)))
    .orderBy(desc(splitCorrections.createdAt), desc(splitCorrections.id))
    .limit(1);
  return row;
}
