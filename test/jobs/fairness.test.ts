import { inArray } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import type { Db } from "@/db/client";
import { analysisJobs } from "@/db/schema";
import { readerPreload } from "@/lib/analysis/isolate/ingest-isolated";
import { ProcessPool } from "@/lib/analysis/isolate/pool";
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
