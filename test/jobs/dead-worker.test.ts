import { rm } from "node:fs/promises";
import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { closeDb, openDb, type Db } from "@/db/client";
import { analysisJobs } from "@/db/schema";
import { resetEnvForTests } from "@/lib/env";
import { submitAnalyses } from "@/lib/jobs";
import { QueueFullError } from "@/lib/readers/queue-full-error";
import { makeMixedPdf } from "../fixtures/formats/scanned-pdf";
import { analyzeForm, createTestOrganization, invoicePages, makePdf } from "../support/api-fixtures";
import { testDatabases, testDatabaseUrl } from "../support/databases";
import { freshPgliteDir } from "../support/pglite-template";
import { startServerProcess, type ServerProcess } from "../support/server-process";
import { jobStates, startWorkerProcess, until, type WorkerProcess } from "./support";

/**
 * A process that dies with jobs running leaves them neither counted forever
 * nor lost. With room for one job in all (one reader, no waiting room), the
 * job a killed process was reading fills the queue only until its lease runs
 * out: then new work is admitted, and the dead job is retried (PostgreSQL,
 * by a new worker process) or, with no retries left, ends failed with its
 * reason (PGlite, after a server restart). Without leases, the dead job
 * counted until pg-boss's own expiry, twice the reading cap (here 2 minutes).
 */
const LEASE_SECONDS = 3;
/** The lease, a sweep (a third of a lease) and the slowness of a loaded machine. */
const ADMITTED_WITHIN_MS = (LEASE_SECONDS + 12) * 1000;
const SETTINGS = {
  ANALYSIS_WORKERS: "1",
  ANALYSIS_QUEUE_MAX: "0",
  ANALYSIS_LEASE_SECONDS: String(LEASE_SECONDS),
  ANALYSIS_TIMEOUT_MS: "60000",
};

/** A scanned page: OCR keeps its reader busy for seconds, long enough to be killed in the middle. */
const scannedPage = () => makeMixedPdf([{ scanned: { lines: invoicePages()[0]! } }]);

/** SIGKILLs the process, waits until `exited` (made after the kill) resolves, and answers when. */
async function killed(pid: number, exited: () => Promise<void>): Promise<number> {
  process.kill(pid, "SIGKILL");
  await exited();
  return Date.now();
}

describe("a worker process killed mid-job, on PostgreSQL", () => {
  const postgresql = testDatabases().find((d) => d.name === "postgresql")!;
  let db: Db;
  const workers: WorkerProcess[] = [];

  beforeAll(async () => {
    // This process is an app instance without a worker of its own.
    vi.stubEnv("ANALYSIS_IN_PROCESS_WORKER", "false");
    for (const [name, value] of Object.entries(SETTINGS)) vi.stubEnv(name, value);
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

  it("admits new work within a lease, and a new worker does the dead job once", { timeout: 300_000 }, async () => {
    const { organizationId } = await createTestOrganization(db);
    const input = async (name: string, bytes: Promise<Uint8Array>) => ({ organizationId, name, bytes: await bytes, evidence: false });
    const [dead] = await submitAnalyses(db, [await input("scan.pdf", scannedPage())]);
    const invoice = await input("invoice.pdf", makePdf(invoicePages()));
    // Room for one job: the queue is full.
    await expect(submitAnalyses(db, [invoice])).rejects.toBeInstanceOf(QueueFullError);

    const first = await startWorkerProcess({ DATABASE_URL: testDatabaseUrl(), ...SETTINGS });
    workers.push(first);
    const status = async () => (await db.select({ status: analysisJobs.status }).from(analysisJobs).where(eq(analysisJobs.id, dead!.id)))[0]?.status;
    await until(async () => (await status()) === "running", 120_000, "the worker to take the scanned job");
    const killedAt = await killed(first.child.pid!, () => first.exited);

    let next: Awaited<ReturnType<typeof submitAnalyses>>[number] | undefined;
    await until(async () => {
      [next] = await submitAnalyses(db, [invoice]).catch((error: unknown) => {
        if (error instanceof QueueFullError) return [];
        throw error;
      });
      return next !== undefined;
    }, 120_000, "new work to be admitted");
    expect(Date.now() - killedAt).toBeLessThan(ADMITTED_WITHIN_MS);

    workers.push(await startWorkerProcess({ DATABASE_URL: testDatabaseUrl(), ...SETTINGS }));
    const ids = [dead!.id, next!.id];
    await until(async () => (await jobStates(db, ids)).every((job) => job.status === "done"), 180_000, "both jobs to be done");
    expect((await jobStates(db, ids)).map((job) => job.analyses)).toEqual([1, 1]);
    const [row] = await db.select({ attempts: analysisJobs.attempts }).from(analysisJobs).where(eq(analysisJobs.id, dead!.id));
    expect(row?.attempts).toBe(2);
  });
});

describe("a server killed mid-job, on PGlite", () => {
  let dataDir: string;
  let key: string;
  let server: ServerProcess | undefined;
  const env = () => ({ ...SETTINGS, DATABASE_URL: undefined, PGLITE_DIR: dataDir, ANALYSIS_RETRY_LIMIT: "0" });

  beforeAll(async () => {
    dataDir = freshPgliteDir();
    const db = await openDb({ dataDir });
    key = (await createTestOrganization(db)).production.key;
    await closeDb(db);
  });
  afterAll(async () => {
    await server?.stop();
    if (dataDir) await rm(dataDir, { recursive: true, force: true });
  });

  const post = (bytes: Uint8Array, name: string) =>
    fetch(`${server!.origin}/v1/documents/analyze`, {
      method: "POST",
      headers: { "x-api-key": key, prefer: "respond-async" },
      body: analyzeForm({ file: { bytes, name } }),
    });
  const get = async (id: string) => (await (await fetch(`${server!.origin}/v1/analyses/${id}`, { headers: { "x-api-key": key } })).json()) as { status: string; detail?: string };

  it("admits new work after a restart, and ends the dead job failed with its reason when no retry is left", { timeout: 600_000 }, async () => {
    server = await startServerProcess(env());
    const accepted = await post(await scannedPage(), "scan.pdf");
    expect(accepted.status).toBe(202);
    const { id: dead } = (await accepted.json()) as { id: string };
    await until(async () => (await get(dead)).status === "running", 120_000, "the server to read the scanned job");
    // stop() after the kill only waits for the exit (its SIGTERM finds no process).
    const killedAt = await killed(server.pid, () => server!.stop());

    server = await startServerProcess(env());
    // Within the bound from the kill (the restart itself may take longer on a loaded machine).
    await new Promise((resolve) => setTimeout(resolve, Math.max(0, killedAt + LEASE_SECONDS * 1000 - Date.now())));
    const next = await post(await makePdf(invoicePages()), "invoice.pdf");
    expect(next.status).toBe(202);
    const { id } = (await next.json()) as { id: string };

    await until(async () => (await get(dead)).status === "failed" && (await get(id)).status === "done", 180_000, "the dead job to fail and the new one to be done");
    expect(await get(dead)).toEqual({
      id: dead,
      status: "failed",
      detail: "The job was abandoned after its last attempt: its worker stopped (died, or lost the database) while reading it.",
    });
  });
});
