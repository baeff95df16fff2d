import "server-only";
import type { Db } from "@/db/client";
import { findSetFileStorage } from "@/db/queries/sets-files";
import { ApiError } from "@/lib/errors";
import { databaseFileStore, type FileStore } from "./storage";

/** The bytes of one uploaded file, as stored, with its sniffed format. */
export async function readFileContent(
  db: Db,
  params: { organizationId: string; setId: string; fileId: string },
  store: FileStore = databaseFileStore(db),
): Promise<{ bytes: Uint8Array; format: string; fileName: string }> {
  const file = await findSetFileStorage(db, params);
  const bytes = file && (await store.get({ organizationId: params.organizationId, storageKey: file.storageKey }));
  if (!file || !bytes) throw new ApiError("not_found", "No such file in this set.");
  return { bytes, format: file.format, fileName: file.fileName };
}
