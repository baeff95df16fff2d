import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import type { Db } from "@/db/client";
import { analyses, analysisJobs } from "@/db/schema";
import { readerPreload } from "@/lib/readers/ingest-isolated";
import { ProcessPool } from "@/lib/readers/pool";
import { resetEnvForTests } from "@/lib/env";
import { forgetAnalysisWorker, resultOf, startAnalysisWorker, stopAnalysisQueue, submitAnalyses, waitForAnalysis } from "@/lib/jobs";
import { addFile } from "@/lib/sets/add-file";
import { createSet } from "@/lib/sets/create-set";
import { deleteSet } from "@/lib/sets/delete-set";
import { makePdfBomb } from "@/test/fixtures/formats/pdf-bomb";
import { createTestOrganization, invoicePages, makePdf, type TestOrganization } from "../support/api-fixtures";
import { seedOrganization, testDatabases } from "../support/databases";
import { jobStates, statusOf, until } from "./support";

/**
 * The queue through the analysis service, on each database: jobs accepted
 * while no worker runs wait in the database through a restart and are done
 * exactly once after it; a set deleted while its file is being read leaves
 * nothing behind.
 */
describe.each(testDatabases())("analysis jobs on $name", (database) => {
  let db: Db;
  let org: TestOrganization;
  let invoice: Uint8Array;
  let pool: ProcessPool;

  beforeAll(async () => {
    // This process takes no job unless a test starts a worker itself.
    vi.stubEnv("ANALYSIS_IN_PROCESS_WORKER", "false");
    resetEnvForTests();
    db = await database.open();
    org = await createTestOrganization(db);
    invoice = await makePdf(invoicePages());
    pool = new ProcessPool({ size: 2, preload: readerPreload(), cpuBudgetMs: 4_000, wallTimeoutMs: 4_000 });
  });
  afterAll(async () => {
    pool?.close();
    if (db) await database.close(db);
    vi.unstubAllEnvs();
    resetEnvForTests();
  });

  it("keeps jobs waiting through a restart, then does each exactly once", { timeout: 240_000 }, async () => {
    const inputs = [1, 2, 3].map((n) => ({ organizationId: org.organizationId, name: `invoice-${n}.pdf`, bytes: invoice, evidence: false }));
    const jobs = await submitAnalyses(db, inputs);
    expect((await jobStates(db, jobs.map((j) => j.id))).map((j) => j.status)).toEqual(["queued", "queued", "queued"]);
    // The server stops with the jobs waiting, and starts again with a worker.
    await stopAnalysisQueue(db, { graceful: true });
    forgetAnalysisWorker(db);
    await startAnalysisWorker(db, { concurrency: 2, pool });
    const outcomes = await Promise.all(jobs.map((job) => waitForAnalysis(db, { jobId: job.id, organizationId: org.organizationId })));
    for (const outcome of outcomes) expect(resultOf(outcome).map((part) => part.split.document_type)).toEqual(["Commercial Invoice"]);
    const states = await jobStates(db, jobs.map((j) => j.id));
    expect(states.map(({ status, analyses: count }) => [status, count])).toEqual([["done", 1], ["done", 1], ["done", 1]]);
  });

  it("a set deleted while its file is being read leaves no job and no analysis", { timeout: 240_000 }, async () => {
    const bomb = await makePdfBomb(1024);
    const owner = await seedOrganization(db);
    const scope = { organizationId: owner.organization.id, userId: owner.user.id };
    const set = await createSet(db, { ...scope, name: "Deleted while read" });
    const file = await addFile(db, { ...scope, setId: set.id, fileName: "slow.pdf", bytes: bomb });
    const [job] = await db.select({ id: analysisJobs.id }).from(analysisJobs).where(eq(analysisJobs.setFileId, file.id));
    await until(async () => (await statusOf(db, job!.id)) === "running", 30_000, "the worker to take the job");
    await deleteSet(db, { organizationId: scope.organizationId, setId: set.id });
    // The reader stops at its time cap; the worker then finds nothing to write to.
    await until(async () => pool.busy === 0, 30_000, "the reader to finish");
    await new Promise((resolve) => setTimeout(resolve, 500));
    expect(await statusOf(db, job!.id)).toBeUndefined();
    expect(await db.select({ id: analyses.id }).from(analyses).where(eq(analyses.id, job!.id))).toEqual([]);
  });
});
