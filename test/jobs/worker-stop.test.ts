import { eq, sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import type { Db } from "@/db/client";
import { queryRows } from "@/db/queries/rows";
import { analysisJobs } from "@/db/schema";
import { env, resetEnvForTests } from "@/lib/env";
import { submitAnalyses } from "@/lib/jobs";
import { makeLongScan } from "../fixtures/formats/scanned-pdf";
import { createTestOrganization } from "../support/api-fixtures";
import { testDatabases, testDatabaseUrl } from "../support/databases";
import { startWorkerProcess, until, type WorkerProcess } from "./support";

/**
 * `npm run worker` stopped (SIGTERM) while it reads a long scan hands the job
 * back to the queue after a short grace, for another worker to retry, rather
 * than holding the stop until the job ends or its reading cap (here far
 * longer than the test) runs out.
 */
const SETTINGS = { ANALYSIS_WORKERS: "1", ANALYSIS_TIMEOUT_MS: "900000" };
/** Each page several seconds of OCR: the job is still being read well after the grace. */
const SCAN_PAGES = 6;

describe("a worker process stopped mid-job, on PostgreSQL", () => {
  const postgresql = testDatabases().find((d) => d.name === "postgresql")!;
  let db: Db;
  let worker: WorkerProcess | undefined;

  beforeAll(async () => {
    // This process is an app instance without a worker of its own.
    vi.stubEnv("ANALYSIS_IN_PROCESS_WORKER", "false");
    for (const [name, value] of Object.entries(SETTINGS)) vi.stubEnv(name, value);
    resetEnvForTests();
    db = await postgresql.open();
  });
  afterAll(async () => {
    worker?.child.kill("SIGKILL");
    await worker?.exited;
    if (db) await postgresql.close(db);
    vi.unstubAllEnvs();
    resetEnvForTests();
  });

  it("exits, handing back the job it was reading for a retry", { timeout: 300_000 }, async () => {
    const { organizationId } = await createTestOrganization(db);
    const [job] = await submitAnalyses(db, [{ organizationId, name: "long-scan.pdf", bytes: await makeLongScan(SCAN_PAGES), evidence: false }]);
    worker = await startWorkerProcess({ DATABASE_URL: testDatabaseUrl(), ...SETTINGS });
    const status = async () => (await db.select({ status: analysisJobs.status }).from(analysisJobs).where(eq(analysisJobs.id, job!.id)))[0]?.status;
    await until(async () => (await status()) === "running", 120_000, "the worker to take the scan");

    let exited = false;
    void worker.exited.then(() => (exited = true));
    worker.child.kill("SIGTERM");
    await until(async () => exited, 120_000, "the worker to exit");
    const entries = await queryRows<{ state: string; output: unknown }>(
      db,
      sql`SELECT state, output FROM pgboss.job WHERE name = ${env().ANALYSIS_QUEUE_NAME} AND data->>'jobId' = ${job!.id}`,
    );
    // Handed back unfinished: queued again for a retry, the job not ended by the stopped worker.
    expect(entries).toEqual([{ state: "retry", output: { value: "pg-boss shut down while active" } }]);
    expect(await status()).toBe("running");
  });
});
