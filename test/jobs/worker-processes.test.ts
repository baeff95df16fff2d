import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import type { Db } from "@/db/client";
import { resetEnvForTests } from "@/lib/env";
import { submitAnalyses } from "@/lib/jobs";
import type { AnalysisJobRow } from "@/db/schema";
import { createTestOrganization, invoicePages, makePdf } from "../support/api-fixtures";
import { testDatabases, testDatabaseUrl } from "../support/databases";
import { jobStates, startWorkerProcess, statusOf, until, type WorkerProcess } from "./support";

/**
 * Workers anywhere: `npm run worker` processes on one PostgreSQL take the jobs
 * that this process (an app instance without a worker of its own) queues for
 * three organizations. One worker is SIGKILLed in the middle of a job: the
 * job comes back after its expiry and the other worker does it. Every job
 * ends done exactly once, with its analysis; nothing is left running.
 */
const JOBS_PER_ORGANIZATION = [14, 13, 13];
/** The reading cap; a job whose worker died is taken again after twice this. */
const TIMEOUT_MS = 3_000;
const WORKER_ENV = { DATABASE_URL: testDatabaseUrl(), ANALYSIS_WORKERS: "1", ANALYSIS_TIMEOUT_MS: String(TIMEOUT_MS) };

describe("two worker processes on one PostgreSQL, one killed mid-job", () => {
  const postgresql = testDatabases().find((d) => d.name === "postgresql")!;
  let db: Db;
  const workers: WorkerProcess[] = [];

  beforeAll(async () => {
    vi.stubEnv("ANALYSIS_IN_PROCESS_WORKER", "false");
    vi.stubEnv("ANALYSIS_TIMEOUT_MS", String(TIMEOUT_MS));
    // All forty are queued before any worker runs.
    vi.stubEnv("ANALYSIS_QUEUE_MAX", "100");
    resetEnvForTests();
    db = await postgresql.open();
  });
  afterAll(async () => {
    for (const worker of workers) worker.child.kill("SIGKILL");
    await Promise.all(workers.map((w) => w.exited));
    if (db) await postgresql.close(db);
    vi.unstubAllEnvs();
    resetEnvForTests();
  });

  it("does every job exactly once", { timeout: 240_000 }, async () => {
    const invoice = await makePdf(invoicePages());
    const jobs: AnalysisJobRow[] = [];
    for (const count of JOBS_PER_ORGANIZATION) {
      const { organizationId } = await createTestOrganization(db);
      for (let n = 0; n < count; n++) {
        jobs.push(...(await submitAnalyses(db, [{ organizationId, name: `invoice-${n}.pdf`, bytes: invoice, evidence: false }])));
      }
    }
    // The first worker alone, so that the job it is killed in is certainly its own.
    const first = await startWorkerProcess(WORKER_ENV);
    workers.push(first);
    let taken: string | undefined;
    await until(async () => {
      for (const job of jobs) if ((await statusOf(db, job.id)) === "running") taken = job.id;
      return taken !== undefined;
    }, 60_000, "the first worker to take a job");
    first.child.kill("SIGKILL");
    await first.exited;
    workers.push(await startWorkerProcess(WORKER_ENV));

    await until(async () => (await jobStates(db, jobs.map((j) => j.id))).every((j) => j.status === "done"), 180_000, "every job to be done");
    const states = await jobStates(db, jobs.map((j) => j.id));
    expect(states).toHaveLength(jobs.length);
    expect(states.filter((s) => s.status !== "done" || s.analyses !== 1)).toEqual([]);
    expect(await statusOf(db, taken!)).toBe("done");
  });
});
