import { and, asc, eq, sql } from "drizzle-orm";
import type { DocumentTypeId, FingerprintLine, LayoutHint, TaughtPlace } from "@/lib/analysis";
import type { Db } from "../client";
import { learnedLayouts, users, type LearnedLayoutRow } from "../schema";

/** One taught field of a learned layout: where its value sits, and the correction that taught it. */
interface LearnedField {
  place: TaughtPlace;
  source: { setId: string; setName: string; fileId: string; fileName: string; pages: number[] };
  taughtBy: string | null;
  taughtAt: string;
}

export type LearnedFields = Record<string, LearnedField>;

export async function insertLearnedLayout(db: Db, values: typeof learnedLayouts.$inferInsert & { id: string; organizationId: string }): Promise<LearnedLayoutRow> {
  const [row] = await db.insert(learnedLayouts).values(values).returning();
  if (!row) throw new Error("insert into learned_layouts returned no row");
  return row;
}

/** The organization's learned layouts, oldest first (of one document type when given). */
export async function listLearnedLayouts(db: Db, params: { organizationId: string; documentType?: string }): Promise<LearnedLayoutRow[]> {
  return db
    .select()
    .from(learnedLayouts)
    .where(and(eq(learnedLayouts.organizationId, params.organizationId), params.documentType ? eq(learnedLayouts.documentType, params.documentType) : undefined))
    .orderBy(asc(learnedLayouts.createdAt), asc(learnedLayouts.id));
}

/** The organization's learned layouts with the e-mail of who first taught each (the admin list). */
export async function listLearnedLayoutsWithAuthor(db: Db, params: { organizationId: string }): Promise<(LearnedLayoutRow & { createdByEmail: string | null })[]> {
  return db
    .select({ layout: learnedLayouts, createdByEmail: users.email })
    .from(learnedLayouts)
    .leftJoin(users, eq(users.id, learnedLayouts.createdBy))
    .where(eq(learnedLayouts.organizationId, params.organizationId))
    .orderBy(asc(learnedLayouts.createdAt), asc(learnedLayouts.id))
    .then((rows) => rows.map((r) => ({ ...r.layout, createdByEmail: r.createdByEmail })));
}

export async function updateLearnedFields(db: Db, params: { organizationId: string; id: string; fields: LearnedFields }): Promise<void> {
  await db
    .update(learnedLayouts)
    .set({ fields: params.fields, updatedAt: sql`now()` })
    .where(and(eq(learnedLayouts.organizationId, params.organizationId), eq(learnedLayouts.id, params.id)));
}

/** Deletes one learned layout of the organization; the row deleted, or undefined when there was none. */
export async function deleteLearnedLayout(db: Db, params: { organizationId: string; id: string }): Promise<LearnedLayoutRow | undefined> {
  const [row] = await db
    .delete(learnedLayouts)
    .where(and(eq(learnedLayouts.organizationId, params.organizationId), eq(learnedLayouts.id, params.id)))
    .returning();
  return row;
}

/** Where a field was taught, in words for the evidence: "invoice.pdf p. 1 in set LC 5120". */
function describeSource(source: LearnedField["source"]): string {
  const pages = source.pages.length === 1 ? `p. ${source.pages[0]}` : `pp. ${source.pages[0]}–${source.pages.at(-1)}`;
  return `${source.fileName} ${pages} in set ${source.setName}`;
}

/** A learned layout as the engine takes it. */
export function toLayoutHint(row: LearnedLayoutRow): LayoutHint {
  const fields = row.fields as LearnedFields;
  return {
    id: row.id,
    documentType: row.documentType as DocumentTypeId,
    issuer: row.issuer,
    fingerprint: row.fingerprint as FingerprintLine[],
    fields: Object.fromEntries(Object.entries(fields).map(([field, learned]) => [field, { ...learned.place, source: describeSource(learned.source) }])),
  };
}
