import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import type { Db } from "@/db/client";
import { beginStoredFile, insertFileChunk } from "@/db/queries/sets-storage";
import { newId } from "@/db/ids";
import { documentChunks, storedFiles } from "@/db/schema";
import { sweepAbandonedUploadsPeriodically } from "@/lib/api/upload-chunks";
import { createTestOrganization } from "../support/api-fixtures";
import { testDatabases } from "../support/databases";

/**
 * Uploads a dead request left unreceived are swept while the process runs,
 * not only when it starts: an upload abandoned after the start is removed
 * (with its chunks) by a later sweep, and one still young is kept.
 */
describe.each(testDatabases())("periodic sweeps of abandoned uploads on $name", (database) => {
  let db: Db;

  beforeAll(async () => {
    db = await database.open();
  });
  afterAll(async () => {
    if (db) await database.close(db);
  });

  it("removes an upload abandoned after the process started, and keeps a young one", { timeout: 60_000 }, async () => {
    const { organizationId } = await createTestOrganization(db);
    const stop = sweepAbandonedUploadsPeriodically(db, { intervalMs: 50 });
    try {
      const begin = async (hoursAgo: number) => {
        const key = { organizationId, storageKey: newId("blob") };
        await beginStoredFile(db, key);
        await insertFileChunk(db, { ...key, chunkIndex: 0, bytes: new Uint8Array(10) });
        await db.update(storedFiles).set({ createdAt: new Date(Date.now() - hoursAgo * 3600_000) }).where(eq(storedFiles.storageKey, key.storageKey));
        return key.storageKey;
      };
      const [abandoned, arriving] = [await begin(7), await begin(1)];
      const left = async (storageKey: string) => [
        (await db.select().from(storedFiles).where(eq(storedFiles.storageKey, storageKey))).length,
        (await db.select({ index: documentChunks.chunkIndex }).from(documentChunks).where(eq(documentChunks.storageKey, storageKey))).length,
      ];
      await vi.waitFor(async () => expect(await left(abandoned)).toEqual([0, 0]), { timeout: 30_000, interval: 50 });
      expect(await left(arriving)).toEqual([1, 1]);
    } finally {
      await stop();
    }
  });
});
