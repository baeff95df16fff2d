import { eq } from "drizzle-orm";
import type { Db } from "@/db/client";
import { newId } from "@/db/ids";
import { insertFileChunk } from "@/db/queries/sets-storage";
import { documentChunks, storedFiles } from "@/db/schema";

/** An upload of one chunk, never received, as a request that died mid-body `hoursAgo` hours ago leaves it; its storage key. */
export async function beginUploadHoursAgo(db: Db, organizationId: string, hoursAgo: number): Promise<string> {
  const key = { organizationId, storageKey: newId("blob") };
  // Its first chunk opens its record, as the intake writes it; no later chunk seals it.
  await insertFileChunk(db, { ...key, chunkIndex: 0, bytes: new Uint8Array(10), opens: true });
  await db.update(storedFiles).set({ createdAt: new Date(Date.now() - hoursAgo * 3600_000) }).where(eq(storedFiles.storageKey, key.storageKey));
  return key.storageKey;
}

/** What storage still holds of a file: [its records, its chunks]. */
export async function storedRowsOf(db: Db, storageKey: string): Promise<[files: number, chunks: number]> {
  return [
    (await db.select().from(storedFiles).where(eq(storedFiles.storageKey, storageKey))).length,
    (await db.select({ index: documentChunks.chunkIndex }).from(documentChunks).where(eq(documentChunks.storageKey, storageKey))).length,
  ];
}
