import "server-only";
import type { Db } from "@/db/client";
import { deleteStoredFiles, openStoredFile, type OpenedStoredFile } from "@/db/queries/sets-storage";
import { storeInput, type DocumentContent } from "@/lib/jobs";

/**
 * Where uploaded file bytes live. The default keeps them in the database, in
 * chunks (db/queries/sets-storage.ts), so they share its transactions,
 * backups and tenancy; another store (disk, object storage) only has to
 * implement these three calls. `put` runs in the accepting transaction: it
 * keeps bytes in memory (an upload the intake held whole too), or an upload
 * already streamed into the store, and returns the file's key, length and
 * SHA-256. `open` gives the file's length and its bytes as a stream, read as
 * they are sent.
 */
export interface FileStore {
  put(params: { organizationId: string; content: DocumentContent }): Promise<{ storageKey: string; sizeBytes: number; sha256: string }>;
  open(params: { organizationId: string; storageKey: string }): Promise<OpenedStoredFile | undefined>;
  delete(params: { organizationId: string; storageKeys: string[] }): Promise<void>;
}

export function databaseFileStore(db: Db): FileStore {
  return {
    put: (params) => storeInput(db, params.organizationId, params.content),
    open: (params) => openStoredFile(db, params),
    delete: (params) => deleteStoredFiles(db, params),
  };
}
