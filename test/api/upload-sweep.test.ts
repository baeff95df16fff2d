import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import type { Db } from "@/db/client";
import { sweepAbandonedUploadsPeriodically } from "@/lib/api/upload-chunks";
import { beginUploadHoursAgo, storedRowsOf } from "../support/abandoned-uploads";
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
      const [abandoned, arriving] = [await beginUploadHoursAgo(db, organizationId, 7), await beginUploadHoursAgo(db, organizationId, 1)];
      await vi.waitFor(async () => expect(await storedRowsOf(db, abandoned)).toEqual([0, 0]), { timeout: 30_000, interval: 50 });
      expect(await storedRowsOf(db, arriving)).toEqual([1, 1]);
    } finally {
      await stop();
    }
  });
});
