import type { Db } from "@/db/client";
import { insertAuditEvent } from "@/db/queries/audit-events";
import { deleteLearnedLayout, listLearnedLayoutsWithAuthor, type LearnedFields } from "@/db/queries/learned-layouts";
import { DOCUMENT_TYPES, type DocumentTypeId } from "@/lib/analysis/schema";
import { requireAdmin } from "./authorize";

/** A learned layout as the admin page lists it. */
export interface LearnedLayoutSummary {
  id: string;
  documentType: string;
  issuer: string;
  fingerprintId: string;
  fields: { field: string; setId: string; setName: string; fileName: string; pages: number[]; taughtAt: string }[];
  createdByEmail: string | null;
  createdAt: string;
  updatedAt: string;
}

const labelOf = (type: string) => DOCUMENT_TYPES[type as DocumentTypeId]?.label ?? type;

/** The organization's learned layouts, each with its taught fields and where they were taught (admins only). */
export async function listLearnedLayoutSummaries(db: Db, params: { organizationId: string; userId: string }): Promise<LearnedLayoutSummary[]> {
  await requireAdmin(db, params);
  const rows = await listLearnedLayoutsWithAuthor(db, params);
  return rows.map((row) => ({
    id: row.id,
    documentType: labelOf(row.documentType),
    issuer: row.issuer,
    fingerprintId: row.fingerprintId,
    fields: Object.entries(row.fields as LearnedFields).map(([field, learned]) => ({ field, ...learned.source, taughtAt: learned.taughtAt })),
    createdByEmail: row.createdByEmail,
    createdAt: row.createdAt.toISOString(),
    updatedAt: row.updatedAt.toISOString(),
  }));
}

/**
 * Forgets a learned layout of the organization (admins only), audited in the
 * same transaction: the next document of that layout is read by the engine's
 * own rules again. False when the organization has no layout with that id.
 */
export async function forgetLearnedLayout(db: Db, params: { organizationId: string; userId: string; layoutId: string }): Promise<boolean> {
  return db.transaction(async (tx) => {
    await requireAdmin(tx, params);
    const row = await deleteLearnedLayout(tx, { organizationId: params.organizationId, id: params.layoutId });
    if (!row) return false;
    await insertAuditEvent(tx, {
      organizationId: params.organizationId,
      actor: params.userId,
      action: "layout.forgotten",
      target: row.id,
      detail: { document: labelOf(row.documentType), issuer: row.issuer, fields: Object.keys(row.fields as LearnedFields).join(", ") },
    });
    return true;
  });
}
