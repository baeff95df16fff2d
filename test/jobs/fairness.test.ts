import { inArray } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import type { Db } from "@/db/client";
import { analysisJobs } from "@/db/schema";
import { readerPreload } from "@/lib/readers/ingest-isolated";
import { ProcessPool } from "@/lib/readers/pool";
import { resetEnvForTests } from "@/lib/env";
import { OrganizationBusyError, startAnalysisWorker, submitAnalyses, waitForAnalysis } from "@/lib/jobs";
import { createTestOrganization, invoicePages, makePdf } from "../support/api-fixtures";
import { testDatabases } from "../support/databases";

/**
 * Fair admission: organization A floods up to its cap (the next is refused
 * with OrganizationBusyError, 429 at the API), organization B is still
 * admitted, and B's one document is read after at most one of A's.
 */
const ORGANIZATION_CAP = 6;

describe.each(testDatabases())("fairness between organizations on $name", (database) => {
  let db: Db;
  let pool: ProcessPool;

  beforeAll(async () => {
    vi.stubEnv("ANALYSIS_IN_PROCESS_WORKER", "false");
    vi.stubEnv("ANALYSIS_ORG_MAX_JOBS", String(ORGANIZATION_CAP));
    resetEnvForTests();
    db = await database.open();
    pool = new ProcessPool({ size: 1, preload: readerPreload() });
  });
  afterAll(async () => {
    pool?.close();
    if (db) await database.close(db);
    vi.unstubAllEnvs();
    resetEnvForTests();
  });

  it("refuses A beyond its cap, admits B, and reads B's file after at most one of A's", { timeout: 240_000 }, async () => {
    const [a, b] = [await createTestOrganization(db), await createTestOrganization(db)];
    const invoice = await makePdf(invoicePages());
    const input = (organizationId: string, n: number) => ({ organizationId, name: `invoice-${n}.pdf`, bytes: invoice, evidence: false });
    const flood = [];
    for (let n = 0; n < ORGANIZATION_CAP; n++) flood.push(...(await submitAnalyses(db, [input(a.organizationId, n)])));
    await expect(submitAnalyses(db, [input(a.organizationId, ORGANIZATION_CAP)])).rejects.toBeInstanceOf(OrganizationBusyError);
    const [single] = await submitAnalyses(db, [input(b.organizationId, 0)]);

    // One reader: the order jobs are taken in is the order they finish.
    await startAnalysisWorker(db, { concurrency: 1, pool });
    await waitForAnalysis(db, { jobId: flood.at(-1)!.id, organizationId: a.organizationId });
    await waitForAnalysis(db, { jobId: single!.id, organizationId: b.organizationId });
    const ids = [...flood, single!].map((j) => j.id);
    const rows = await db.select({ id: analysisJobs.id, startedAt: analysisJobs.startedAt }).from(analysisJobs).where(inArray(analysisJobs.id, ids));
    const order = rows.sort((x, y) => x.startedAt!.getTime() - y.startedAt!.getTime()).map((r) => r.id);
    expect(order.indexOf(single!.id)).toBeLessThanOrEqual(1);
  });
});

/**
 * The hard cap on running jobs: with two readers and ANALYSIS_ORG_MAX_RUNNING
 * of 1, organization A never runs two jobs at once, however many it queued,
 * and the other reader is left to organization B.
 */
describe.each(testDatabases())("running cap per organization on $name", (database) => {
  let db: Db;
  let pool: ProcessPool;

  beforeAll(async () => {
    vi.stubEnv("ANALYSIS_IN_PROCESS_WORKER", "false");
    vi.stubEnv("ANALYSIS_ORG_MAX_RUNNING", "1");
    resetEnvForTests();
    db = await database.open();
    pool = new ProcessPool({ size: 2, preload: readerPreload() });
  });
  afterAll(async () => {
    pool?.close();
    if (db) await database.close(db);
    vi.unstubAllEnvs();
    resetEnvForTests();
  });

  it("never runs two of A's jobs at once on two readers, and runs B's beside them", { timeout: 240_000 }, async () => {
    const [a, b] = [await createTestOrganization(db), await createTestOrganization(db)];
    const invoice = await makePdf(invoicePages());
    const input = (organizationId: string, n: number) => ({ organizationId, name: `invoice-${n}.pdf`, bytes: invoice, evidence: false });
    const flood = await submitAnalyses(db, [0, 1, 2, 3].map((n) => input(a.organizationId, n)));
    const [single] = await submitAnalyses(db, [input(b.organizationId, 0)]);
    await startAnalysisWorker(db, { concurrency: 2, pool });
    await Promise.all([...flood, single!].map((job) => waitForAnalysis(db, { jobId: job.id, organizationId: job.organizationId })));

    const ids = flood.map((j) => j.id);
    const rows = await db
      .select({ id: analysisJobs.id, status: analysisJobs.status, startedAt: analysisJobs.startedAt, finishedAt: analysisJobs.finishedAt })
      .from(analysisJobs)
      .where(inArray(analysisJobs.id, [...ids, single!.id]));
    expect(rows.map((r) => r.status)).toEqual(rows.map(() => "done"));
    const runs = rows.filter((r) => ids.includes(r.id)).sort((x, y) => x.startedAt!.getTime() - y.startedAt!.getTime());
    // Each of A's jobs started only after the one before it had finished.
    for (let i = 1; i < runs.length; i++) expect(runs[i]!.startedAt!.getTime()).toBeGreaterThanOrEqual(runs[i - 1]!.finishedAt!.getTime());
    // B's job, queued after all of A's, did not wait for them all.
    const bStarted = rows.find((r) => r.id === single!.id)!.startedAt!.getTime();
    expect(bStarted).toBeLessThan(runs.at(-1)!.startedAt!.getTime());
  });
});
