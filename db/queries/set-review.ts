import { and, asc, desc, eq, inArray } from "drizzle-orm";
import type { Db } from "../client";
import {
  auditEvents,
  documentReviews,
  fieldCorrections,
  findingDecisions,
  setFiles,
  users,
  type AuditEvent,
  type DocumentReviewRow,
  type FieldCorrectionRow,
  type FindingDecisionRow,
} from "../schema";

/** Every function takes the organization id: another organization's rows are simply not found. */
type Scoped<T> = T & { id: string; organizationId: string };

/** A row with the e-mail of the person who wrote it (people read names, not ids). */
export type WithAuthor<T> = T & { createdByEmail: string | null };

export async function insertFieldCorrection(db: Db, values: Scoped<typeof fieldCorrections.$inferInsert>): Promise<FieldCorrectionRow> {
  const [row] = await db.insert(fieldCorrections).values(values).returning();
  if (!row) throw new Error("insert into field_corrections returned no row");
  return row;
}

export async function insertDocumentReview(db: Db, values: Scoped<typeof documentReviews.$inferInsert>): Promise<DocumentReviewRow> {
  const [row] = await db.insert(documentReviews).values(values).returning();
  if (!row) throw new Error("insert into document_reviews returned no row");
  return row;
}

export async function insertFindingDecision(db: Db, values: Scoped<typeof findingDecisions.$inferInsert>): Promise<FindingDecisionRow> {
  const [row] = await db.insert(findingDecisions).values(values).returning();
  if (!row) throw new Error("insert into finding_decisions returned no row");
  return row;
}

/** Every field correction of the given files, oldest first (the newest per document and field is in force). */
export async function listFieldCorrections(
  db: Db,
  params: { organizationId: string; fileIds: string[] },
): Promise<WithAuthor<FieldCorrectionRow>[]> {
  if (params.fileIds.length === 0) return [];
  const rows = await db
    .select({ row: fieldCorrections, createdByEmail: users.email })
    .from(fieldCorrections)
    .leftJoin(users, eq(users.id, fieldCorrections.createdBy))
    .where(and(eq(fieldCorrections.organizationId, params.organizationId), inArray(fieldCorrections.setFileId, params.fileIds)))
    .orderBy(asc(fieldCorrections.createdAt), asc(fieldCorrections.id));
  return rows.map((r) => ({ ...r.row, createdByEmail: r.createdByEmail }));
}

/** Every review mark of the given files, oldest first. */
export async function listDocumentReviews(
  db: Db,
  params: { organizationId: string; fileIds: string[] },
): Promise<WithAuthor<DocumentReviewRow>[]> {
  if (params.fileIds.length === 0) return [];
  const rows = await db
    .select({ row: documentReviews, createdByEmail: users.email })
    .from(documentReviews)
    .leftJoin(users, eq(users.id, documentReviews.createdBy))
    .where(and(eq(documentReviews.organizationId, params.organizationId), inArray(documentReviews.setFileId, params.fileIds)))
    .orderBy(asc(documentReviews.createdAt), asc(documentReviews.id));
  return rows.map((r) => ({ ...r.row, createdByEmail: r.createdByEmail }));
}

/** Every decision on the set's findings, oldest first (the history; the newest per finding is in force). */
export async function listFindingDecisions(
  db: Db,
  params: { organizationId: string; setId: string },
): Promise<WithAuthor<FindingDecisionRow>[]> {
  const rows = await db
    .select({ row: findingDecisions, createdByEmail: users.email })
    .from(findingDecisions)
    .leftJoin(users, eq(users.id, findingDecisions.createdBy))
    .where(and(eq(findingDecisions.organizationId, params.organizationId), eq(findingDecisions.setId, params.setId)))
    .orderBy(asc(findingDecisions.createdAt), asc(findingDecisions.id));
  return rows.map((r) => ({ ...r.row, createdByEmail: r.createdByEmail }));
}

/** The set's audit trail (its corrections, reviews and decisions), newest first, with each actor's e-mail. */
export async function listSetAuditEvents(
  db: Db,
  params: { organizationId: string; setId: string; limit: number },
): Promise<(AuditEvent & { actorEmail: string | null })[]> {
  const rows = await db
    .select({ event: auditEvents, actorEmail: users.email })
    .from(auditEvents)
    .leftJoin(users, eq(users.id, auditEvents.actor))
    .where(and(eq(auditEvents.organizationId, params.organizationId), eq(auditEvents.target, params.setId)))
    .orderBy(desc(auditEvents.id))
    .limit(params.limit);
  return rows.map((r) => ({ ...r.event, actorEmail: r.actorEmail }));
}

/** The set file an analysis was made for, if it was made for one. */
export async function findSetFileOfAnalysis(
  db: Db,
  params: { organizationId: string; analysisId: string },
): Promise<{ id: string; setId: string } | undefined> {
  const [row] = await db
    .select({ id: setFiles.id, setId: setFiles.setId })
    .from(setFiles)
    .where(and(eq(setFiles.organizationId, params.organizationId), eq(setFiles.analysisId, params.analysisId)))
    .limit(1);
  return row;
}
