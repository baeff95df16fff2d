import { closeDb, getDb } from "@/db/client";
import { sharedPool } from "@/lib/readers/ingest-isolated";
import { env } from "@/lib/env";
import { stopAnalysisQueue } from "./analysis-queue";
import { ensureInProcessWorker, startAnalysisWorker } from "./worker";

/**
 * Starts a process's part in the queue before it serves anything: the
 * database migrated, the readers started and their modules loaded (so the
 * first requests never wait seconds for a reader to start), and — in `npm
 * start`, unless ANALYSIS_IN_PROCESS_WORKER=false — a worker that takes the
 * jobs left waiting by a previous run at once.
 */
export async function startServerWorker(): Promise<void> {
  const db = await getDb();
  if (env().ANALYSIS_IN_PROCESS_WORKER) await sharedPool().ready();
  await ensureInProcessWorker(db);
}

/**
 * `npm run worker`: a process that only takes jobs. It needs PostgreSQL
 * (DATABASE_URL): embedded PGlite allows one process, the server's.
 */
export async function startStandaloneWorker(): Promise<void> {
  const config = env();
  if (!config.DATABASE_URL) {
    throw new Error("npm run worker needs DATABASE_URL (PostgreSQL): embedded PGlite serves one process, and npm start already runs a worker in it.");
  }
  const db = await getDb();
  await sharedPool().ready();
  await startAnalysisWorker(db, { concurrency: config.ANALYSIS_WORKERS, pool: sharedPool() });
}

/**
 * Graceful stop (SIGTERM): take no new job, give the running ones the
 * reading cap to finish; one still running then is handed back to the queue
 * (failed, retried by another worker). Then the readers and the database close.
 */
export async function stopServerWorker(): Promise<void> {
  const db = await getDb();
  await stopAnalysisQueue(db, { graceful: true, timeoutMs: env().ANALYSIS_TIMEOUT_MS });
  sharedPool().close();
  await closeDb();
}
