import { sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import type { Db } from "@/db/client";
import { queryRows } from "@/db/queries/rows";
import { readerPreload } from "@/lib/readers/ingest-isolated";
import { ProcessPool } from "@/lib/readers/pool";
import { resetEnvForTests } from "@/lib/env";
import { forgetAnalysisWorker, startAnalysisWorker, stopAnalysisQueue, submitAnalyses, waitForAnalysis } from "@/lib/jobs";
import { createTestOrganization, invoicePages, makePdf, type TestOrganization } from "../support/api-fixtures";
import { testDatabases } from "../support/databases";
import { until } from "./support";

type Query = (text: unknown, ...rest: unknown[]) => Promise<unknown>;

/** pg-boss's own complete (plans.js completeJobs), which a worker's job no longer needs. */
const isPgBossComplete = (text: string) => /WITH results AS \(\s*UPDATE \S+\.job\s+SET completed_on/.test(text);

/**
 * A job run by a worker ends with its queue entry: the statement that ends
 * the job, done or refused, also completes the entry, so pg-boss's own
 * complete is never sent for it (a round trip, and on PGlite a statement on
 * the server's thread, per job).
 */
describe.each(testDatabases())("a worker's queue entries on $name", (database) => {
  let db: Db;
  let org: TestOrganization;
  let pool: ProcessPool;
  /** Every statement sent on the database's client, pg-boss's included. */
  const sent: string[] = [];

  beforeAll(async () => {
    vi.stubEnv("ANALYSIS_IN_PROCESS_WORKER", "false");
    resetEnvForTests();
    db = await database.open();
    const client = (db as unknown as { $client: { query: Query } }).$client;
    const query = client.query.bind(client);
    client.query = (text, ...rest) => {
      sent.push(typeof text === "string" ? text : String((text as { text?: string }).text));
      return query(text, ...rest);
    };
    org = await createTestOrganization(db);
    pool = new ProcessPool({ size: 1, preload: readerPreload(), cpuBudgetMs: 4_000, wallTimeoutMs: 4_000 });
    await startAnalysisWorker(db, { concurrency: 1, pool });
  });
  afterAll(async () => {
    if (db) {
      await stopAnalysisQueue(db, { graceful: true });
      forgetAnalysisWorker(db);
    }
    pool?.close();
    if (db) await database.close(db);
    vi.unstubAllEnvs();
    resetEnvForTests();
  });

  const entryState = async (jobId: string) => {
    const [row] = await queryRows<{ state: string }>(
      db,
      sql`SELECT state FROM pgboss.job WHERE name = ${process.env.ANALYSIS_QUEUE_NAME} AND data->>'jobId' = ${jobId}`,
    );
    return row?.state;
  };

  it("completes the entries of a job done and of a file refused, without pg-boss's complete", { timeout: 120_000 }, async () => {
    const garbage = Buffer.concat([Buffer.from("%PDF-1.7\n"), Buffer.from("this is not a pdf body at all ".repeat(40))]);
    const inputs = [
      { organizationId: org.organizationId, name: "invoice.pdf", bytes: await makePdf(invoicePages()), evidence: false },
      { organizationId: org.organizationId, name: "damaged.pdf", bytes: new Uint8Array(garbage), evidence: false },
    ];
    const jobs = await submitAnalyses(db, inputs);
    const outcomes = await Promise.all(jobs.map((job) => waitForAnalysis(db, { jobId: job.id, organizationId: org.organizationId })));
    expect(outcomes.map((outcome) => outcome.status)).toEqual(["done", "failed"]);
    // pg-boss's work() would complete each entry after its handler: wait for the entries' end either way.
    for (const job of jobs) await until(async () => (await entryState(job.id)) === "completed", 30_000, `the entry of ${job.id} to complete`);
    expect(sent.filter(isPgBossComplete)).toEqual([]);
  });
});
