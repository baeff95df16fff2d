import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Db } from "@/db/client";
import { beginUploadHoursAgo, storedRowsOf } from "../support/abandoned-uploads";
import { createTestOrganization } from "../support/api-fixtures";
import { testDatabases, testDatabaseUrl } from "../support/databases";
import { startWorkerProcess, type WorkerProcess } from "./support";

/**
 * A host that runs only `npm run worker` sweeps the uploads left unreceived
 * by requests that died mid-body, as a server does at start
 * (sweepAbandonedUploads): before the worker says it is ready, an upload
 * begun 7 hours ago is gone with its chunks, one begun an hour ago is kept.
 * PostgreSQL only: a worker process needs DATABASE_URL (embedded PGlite serves one process).
 */
describe("npm run worker sweeps abandoned uploads at start", () => {
  const postgresql = testDatabases().find((d) => d.name === "postgresql")!;
  let db: Db;
  let worker: WorkerProcess | undefined;

  beforeAll(async () => {
    db = await postgresql.open();
  });
  afterAll(async () => {
    worker?.child.kill("SIGTERM");
    await worker?.exited;
    if (db) await postgresql.close(db);
  });

  it("removes an upload begun 7 hours ago and keeps one begun an hour ago", { timeout: 120_000 }, async () => {
    const { organizationId } = await createTestOrganization(db);
    const [abandoned, arriving] = [await beginUploadHoursAgo(db, organizationId, 7), await beginUploadHoursAgo(db, organizationId, 1)];

    worker = await startWorkerProcess({ DATABASE_URL: testDatabaseUrl(), ANALYSIS_WORKERS: "1" });
    expect(await storedRowsOf(db, abandoned)).toEqual([0, 0]);
    expect(await storedRowsOf(db, arriving)).toEqual([1, 1]);
  });
});
