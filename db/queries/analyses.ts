import { and, desc, eq } from "drizzle-orm";
import type { Db } from "../client";
import { analyses, type AnalysisRow } from "../schema";

export type NewAnalysisRow = typeof analyses.$inferInsert & { id: string; organizationId: string };

export async function insertAnalysis(db: Db, values: NewAnalysisRow): Promise<AnalysisRow> {
  const [row] = await db.insert(analyses).values(values).returning();
  if (!row) throw new Error("insert into analyses returned no row");
  return row;
}

export async function findAnalysis(
  db: Db,
  params: { organizationId: string; analysisId: string },
): Promise<AnalysisRow | undefined> {
  const [row] = await db
    .select()
    .from(analyses)
    .where(and(eq(analyses.organizationId, params.organizationId), eq(analyses.id, params.analysisId)))
    .limit(1);
  return row;
}

/** Newest first. */
export async function listAnalyses(
  db: Db,
  params: { organizationId: string; limit?: number },
): Promise<AnalysisRow[]> {
  return db
    .select()
    .from(analyses)
    .where(eq(analyses.organizationId, params.organizationId))
    .orderBy(desc(analyses.createdAt), analyses.id)
    .limit(params.limit ?? 50);
}
