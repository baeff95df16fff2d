import "server-only";
import type { Db } from "@/db/client";
import { deleteAnalysesOfSet, deleteDocumentSet } from "@/db/queries/sets";
import { listSetFileReferences } from "@/db/queries/sets-files";
import { ApiError } from "@/lib/errors";
import { databaseFileStore, type FileStore } from "./storage";

export const SET_NOT_FOUND = "No such document set.";

/** Deletes a set with its files, stored bytes, analyses and corrections, in one transaction. */
export async function deleteSet(
  db: Db,
  params: { organizationId: string; setId: string },
  store: (tx: Db) => FileStore = databaseFileStore,
): Promise<void> {
  await db.transaction(async (tx) => {
    const references = await listSetFileReferences(tx, params);
    if (!(await deleteDocumentSet(tx, params))) throw new ApiError("not_found", SET_NOT_FOUND);
    const analysisIds = references.map((r) => r.analysisId).filter((id): id is string => id !== null);
    await deleteAnalysesOfSet(tx, { organizationId: params.organizationId, analysisIds });
    await store(tx).delete({ organizationId: params.organizationId, storageKeys: references.map((r) => r.storageKey) });
  });
}
