/**
 * How long `npm run worker` takes to exit on SIGTERM: idle, and while it reads
 * one long scan (makeLongScan, each page seconds of OCR), and what became of
 * that job's queue entry (completed: the worker finished it before exiting;
 * retry: it handed it back for another worker).
 *
 *   node --import tsx bench/worker-stop.ts [--pages N]
 *
 * PostgreSQL from TEST_DATABASE_URL (a worker process needs PostgreSQL), on a queue of its own.
 */
import { randomBytes } from "node:crypto";
import { eq, sql } from "drizzle-orm";
import { closeDb, openDb } from "@/db/client";
import { queryRows } from "@/db/queries/rows";
import { analysisJobs } from "@/db/schema";
import { resetEnvForTests } from "@/lib/env";
import { stopAnalysisQueue, submitAnalyses } from "@/lib/jobs";
import { makeLongScan } from "@/test/fixtures/formats/scanned-pdf";
import { createTestOrganization } from "@/test/support/api-fixtures";
import { testDatabaseUrl } from "@/test/support/databases";
import { startWorkerProcess, until, type WorkerProcess } from "@/test/jobs/support";

const DEFAULT_PAGES = 20;
const at = process.argv.indexOf("--pages");
const pages = at >= 0 ? Number(process.argv[at + 1]) : DEFAULT_PAGES;

const queueName = `bench-stop-${randomBytes(4).toString("hex")}`;
const settings = { DATABASE_URL: testDatabaseUrl(), ANALYSIS_QUEUE_NAME: queueName, ANALYSIS_WORKERS: "1", ANALYSIS_IN_PROCESS_WORKER: "false" };
Object.assign(process.env, settings);
resetEnvForTests();

/** Milliseconds from SIGTERM to the worker's exit. */
async function stopTimed(worker: WorkerProcess): Promise<number> {
  const started = performance.now();
  worker.child.kill("SIGTERM");
  await worker.exited;
  return Math.round(performance.now() - started);
}

const db = await openDb({ url: testDatabaseUrl() });
const idleMs = await stopTimed(await startWorkerProcess(settings));

const { organizationId } = await createTestOrganization(db);
const [job] = await submitAnalyses(db, [{ organizationId, name: "long-scan.pdf", bytes: await makeLongScan(pages), evidence: false }]);
const worker = await startWorkerProcess(settings);
const status = async () => (await db.select({ status: analysisJobs.status }).from(analysisJobs).where(eq(analysisJobs.id, job!.id)))[0]?.status;
await until(async () => (await status()) === "running", 120_000, "the worker to take the scan");
const runningMs = await stopTimed(worker);
const [entry] = await queryRows<{ state: string }>(db, sql`SELECT state FROM pgboss.job WHERE name = ${queueName} AND data->>'jobId' = ${job!.id}`);

console.log(`worker exit after SIGTERM: idle ${idleMs} ms; reading a ${pages}-page scan ${runningMs} ms (job ${await status()}, its entry ${entry?.state})`);
await stopAnalysisQueue(db, { graceful: false, destroy: true });
await closeDb(db);
