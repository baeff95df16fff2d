import { and, eq, inArray } from "drizzle-orm";
import type { Db } from "../client";
import { storedFiles } from "../schema";

export async function insertStoredFile(db: Db, values: { storageKey: string; organizationId: string; bytes: Uint8Array }): Promise<void> {
  await db.insert(storedFiles).values(values);
}

export async function readStoredFile(db: Db, params: { organizationId: string; storageKey: string }): Promise<Uint8Array | undefined> {
  const [row] = await db
    .select({ bytes: storedFiles.bytes })
    .from(storedFiles)
    .where(and(eq(storedFiles.organizationId, params.organizationId), eq(storedFiles.storageKey, params.storageKey)))
    .limit(1);
  return row?.bytes;
}

export async function deleteStoredFiles(db: Db, params: { organizationId: string; storageKeys: string[] }): Promise<void> {
  if (params.storageKeys.length === 0) return;
  await db
    .delete(storedFiles)
    .where(and(eq(storedFiles.organizationId, params.organizationId), inArray(storedFiles.storageKey, params.storageKeys)));
}
