import "server-only";
import type { Db } from "@/db/client";
import { deleteStoredFiles, insertStoredFile, readStoredFile } from "@/db/queries/sets-storage";

/**
 * Where uploaded file bytes live. The default keeps them in the database
 * (bytea), so they share its transactions, backups and tenancy; another store
 * (disk, object storage) only has to implement these three calls.
 */
export interface FileStore {
  put(params: { organizationId: string; storageKey: string; bytes: Uint8Array }): Promise<void>;
  get(params: { organizationId: string; storageKey: string }): Promise<Uint8Array | undefined>;
  delete(params: { organizationId: string; storageKeys: string[] }): Promise<void>;
}

export function databaseFileStore(db: Db): FileStore {
  return {
    put: (params) => insertStoredFile(db, params),
    get: (params) => readStoredFile(db, params),
    delete: (params) => deleteStoredFiles(db, params),
  };
}
