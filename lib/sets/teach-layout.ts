import "server-only";
import type { Db } from "@/db/client";
import { newId } from "@/db/ids";
import { insertAuditEvent } from "@/db/queries/audit-events";
import { insertLearnedLayout, listLearnedLayouts, updateLearnedFields, type LearnedFields } from "@/db/queries/learned-layouts";
import { listSetFilePages } from "@/db/queries/sets-files";
import {
  fingerprintId,
  idOfLabel,
  issuerKeyOf,
  LAYOUT_MATCH_THRESHOLD,
  layoutFingerprint,
  layoutSimilarity,
  locateValue,
  type FieldKind,
  type FingerprintLine,
  type Page,
  type SplitResult,
} from "@/lib/analysis";

export interface TeachParams {
  organizationId: string;
  userId: string;
  set: { id: string; name: string };
  file: { id: string; fileName: string };
  split: SplitResult;
  field: string;
  kind: FieldKind;
  /** The corrected value (normalised), or null when the engine's value was put back. */
  value: unknown;
}

const sameSource = (a: LearnedFields[string]["source"], file: TeachParams["file"], pages: number[]) => a.fileId === file.id && a.pages.join(",") === pages.join(",");

/**
 * Teaches the document's layout where the corrected value sits (issue 14,
 * "teach a layout once"), in the correction's transaction: the layout of the
 * same type and issuer whose labels sit where this document's do gets the
 * field (a new layout otherwise), audited. A value not printed on the
 * document teaches nothing. Putting the engine's value back forgets the field
 * where this document taught it. Returns the layout's id when one was taught.
 */
export async function teachLayout(tx: Db, params: TeachParams): Promise<string | undefined> {
  const type = idOfLabel(params.split.split.document_type);
  if (!type || type === "other") return undefined;
  const layouts = await listLearnedLayouts(tx, { organizationId: params.organizationId, documentType: type });
  const pagesOfSplit = params.split.split.pages;
  if (params.value === null) {
    for (const layout of layouts) {
      const fields = layout.fields as LearnedFields;
      const learned = fields[params.field];
      if (!learned || !sameSource(learned.source, params.file, pagesOfSplit)) continue;
      const { [params.field]: _forgotten, ...rest } = fields;
      await updateLearnedFields(tx, { organizationId: params.organizationId, id: layout.id, fields: rest });
      await audit(tx, params, "document_set.layout_field_forgotten", layout.id);
    }
    return undefined;
  }
  const [row] = await listSetFilePages(tx, { organizationId: params.organizationId, fileIds: [params.file.id] });
  const pages = ((row?.pages ?? []) as Page[]).filter((p) => pagesOfSplit.includes(p.number));
  const place = locateValue(pages, params.field, params.kind, params.value);
  if (!place) return undefined;
  const fingerprint = layoutFingerprint(pages);
  const issuer = issuerKeyOf({ ...params.split.extracted, [params.field]: params.value });
  const learned: LearnedFields[string] = {
    place,
    source: { setId: params.set.id, setName: params.set.name, fileId: params.file.id, fileName: params.file.fileName, pages: pagesOfSplit },
    taughtBy: params.userId,
    taughtAt: new Date().toISOString(),
  };
  const match = layouts
    .filter((l) => l.issuer === issuer)
    .map((l) => ({ layout: l, similarity: layoutSimilarity(fingerprint, l.fingerprint as FingerprintLine[]) }))
    .filter((m) => m.similarity >= LAYOUT_MATCH_THRESHOLD)
    .sort((a, b) => b.similarity - a.similarity)[0];
  let layoutId: string;
  if (match) {
    layoutId = match.layout.id;
    await updateLearnedFields(tx, { organizationId: params.organizationId, id: layoutId, fields: { ...(match.layout.fields as LearnedFields), [params.field]: learned } });
  } else {
    layoutId = newId("lay");
    await insertLearnedLayout(tx, {
      id: layoutId,
      organizationId: params.organizationId,
      documentType: type,
      issuer,
      fingerprintId: fingerprintId(fingerprint),
      fingerprint,
      fields: { [params.field]: learned },
      createdBy: params.userId,
    });
  }
  await audit(tx, params, "document_set.layout_taught", layoutId);
  return layoutId;
}

function audit(tx: Db, params: TeachParams, action: string, layoutId: string) {
  return insertAuditEvent(tx, {
    organizationId: params.organizationId,
    actor: params.userId,
    action,
    // The set's history lists it beside the correction that taught it.
    target: params.set.id,
    detail: { layoutId, fileName: params.file.fileName, document: params.split.split.document_type, pages: params.split.split.pages.join(","), field: params.field },
  });
}
