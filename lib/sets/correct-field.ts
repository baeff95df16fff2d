import "server-only";
import { z } from "zod";
import type { Db } from "@/db/client";
import { newId } from "@/db/ids";
import { insertAuditEvent } from "@/db/queries/audit-events";
import { insertDocumentReview, insertFieldCorrection } from "@/db/queries/set-review";
import { ApiError } from "@/lib/errors";
import { parseInput } from "@/lib/services/validation";
import { pagesKeyOf } from "./apply-review";
import { fieldKindOf, normalizeFieldValue } from "./field-values";
import { getSet } from "./get-set";
import { teachLayout } from "./teach-layout";
import type { SetFileView } from "./types";

const FILE_NOT_FOUND = "No such file in this set.";
const splitIndex = z.number({ error: "the number of the document in the file, from 0" }).int().nonnegative();

const FieldCorrectionInput = z.object({
  splitIndex,
  field: z.string().min(1, "name the field").max(100),
  /** null puts the engine's value back. */
  value: z.unknown(),
});

const ReviewInput = z.object({ splitIndex, reviewed: z.boolean({ error: "true or false" }) });

interface Scope {
  organizationId: string;
  setId: string;
  fileId: string;
  userId: string;
}

/** The analysed file with its splits in force (the checker's corrections included) and its set, or a 404/409. */
async function analysedFile(tx: Db, params: Scope): Promise<{ file: SetFileView; set: { id: string; name: string } }> {
  const view = await getSet(tx, params);
  const file = view.files.find((f) => f.id === params.fileId);
  if (!file) throw new ApiError("not_found", FILE_NOT_FOUND);
  if (file.status !== "done") throw new ApiError("conflict", "The file has not been analysed yet; correct its values once its analysis is done.");
  return { file, set: view.set };
}

function splitOf(file: SetFileView, index: number) {
  const split = file.splits[index];
  if (!split) throw new ApiError("invalid_input", `splitIndex: there is no document ${index + 1}; the file has ${file.splits.length}.`);
  return split;
}

/**
 * Corrects (or adds) one extracted value of one document of a set file, or
 * puts the engine's value back (value null). Kept with who and when, audited
 * in the same transaction; the set's comparison and findings follow at once
 * since they are computed from the values in force.
 */
export async function correctField(db: Db, params: Scope & { input: unknown }): Promise<void> {
  const input = parseInput(FieldCorrectionInput, params.input);
  await db.transaction(async (tx) => {
    const { file, set } = await analysedFile(tx, params);
    const split = splitOf(file, input.splitIndex);
    const kind = fieldKindOf(split.split.document_type, input.field);
    const previous = file.fieldCorrections.find((c) => c.splitIndex === input.splitIndex && c.field === input.field);
    if ((input.value === null || input.value === undefined) && !previous) {
      throw new ApiError("invalid_input", `value: give ${input.field} a value.`);
    }
    const value = input.value === null || input.value === undefined ? null : normalizeFieldValue(kind, input.field, input.value);
    const original = previous ? previous.original : (split.extracted[input.field] ?? null);
    const pagesKey = pagesKeyOf(split.split.pages);
    await insertFieldCorrection(tx, {
      id: newId("fcr"),
      organizationId: params.organizationId,
      setFileId: file.id,
      pagesKey,
      field: input.field,
      value,
      original,
      createdBy: params.userId,
    });
    await insertAuditEvent(tx, {
      organizationId: params.organizationId,
      actor: params.userId,
      action: value === null ? "document_set.value_restored" : "document_set.value_corrected",
      target: params.setId,
      detail: { fileId: file.id, fileName: file.fileName, document: split.split.document_type, pages: pagesKey, field: input.field },
    });
    // The document's layout learns where the value sits, for the next document of the layout.
    await teachLayout(tx, { organizationId: params.organizationId, userId: params.userId, set, file, split, field: input.field, kind, value });
  });
}

/** Marks one document of a set file reviewed (or not), with who and when, audited. */
export async function reviewDocument(db: Db, params: Scope & { input: unknown }): Promise<void> {
  const input = parseInput(ReviewInput, params.input);
  await db.transaction(async (tx) => {
    const { file } = await analysedFile(tx, params);
    const split = splitOf(file, input.splitIndex);
    const pagesKey = pagesKeyOf(split.split.pages);
    await insertDocumentReview(tx, {
      id: newId("rev"),
      organizationId: params.organizationId,
      setFileId: file.id,
      pagesKey,
      reviewed: input.reviewed ? 1 : 0,
      createdBy: params.userId,
    });
    await insertAuditEvent(tx, {
      organizationId: params.organizationId,
      actor: params.userId,
      action: input.reviewed ? "document_set.document_reviewed" : "document_set.review_withdrawn",
      target: params.setId,
      detail: { fileId: file.id, fileName: file.fileName, document: split.split.document_type, pages: pagesKey },
    });
  });
}
