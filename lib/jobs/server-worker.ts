import { closeDb, getDb, type Db } from "@/db/client";
import { sharedPool } from "@/lib/readers/ingest-isolated";
import { env } from "@/lib/env";
import { stopAnalysisQueue } from "./analysis-queue";
import { ensureInProcessWorker, startAnalysisWorker } from "./worker";

/** Warm-ups of the server's own request path (lib/api/warm-up.ts), each given the database. */
export interface ServerWarmUps {
  /** Runs on this process's worker and readers before the server serves anything. */
  warmUp?: (db: Db) => Promise<unknown>;
  /**
   * Goes through the server itself (over HTTP), so it can only run once the
   * server serves: `next start` holds every request until its instrumentation
   * hook returns. It starts then, and the server says it is ready when it ends.
   */
  warmUpServed?: (db: Db) => Promise<unknown>;
}

/**
 * Starts a process's part in the queue before it serves anything: the
 * database migrated, the readers started, their modules loaded and warmed on
 * sample invoices (so the first requests never wait seconds for a reader to
 * start, nor run in a cold one), and — in `npm
 * start`, unless ANALYSIS_IN_PROCESS_WORKER=false — a worker that takes the
 * jobs left waiting by a previous run at once; then the warm-ups (ServerWarmUps)
 * run on that worker.
 */
export async function startServerWorker(options: ServerWarmUps = {}): Promise<void> {
  const db = await getDb();
  const config = env();
  if (config.ANALYSIS_IN_PROCESS_WORKER) await sharedPool().ready();
  await ensureInProcessWorker(db);
  if (config.ANALYSIS_IN_PROCESS_WORKER && options.warmUp) await options.warmUp(db);
  // `next start` prints its own "Ready" when the port opens, before this hook has run: requests that
  // arrive in between are held (not refused) until here. This line is when the server is really ready.
  const announce = () => {
    const readers = config.ANALYSIS_IN_PROCESS_WORKER ? `${sharedPool().readyReaders} readers warm, taking analysis jobs` : "analysis jobs left to npm run worker";
    console.log(`Shipshape ready after ${process.uptime().toFixed(1)} s: database migrated, ${readers}`);
  };
  if (config.ANALYSIS_IN_PROCESS_WORKER && options.warmUpServed) void options.warmUpServed(db).finally(announce);
  else announce();
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
 * How long a stopping process lets its running jobs finish before it hands
 * them back. Well within what process managers wait after SIGTERM before they
 * SIGKILL (docker stop: 10 s; Kubernetes: 30 s), which would leave a job to
 * be found only when its lease runs out. A digital document ends within it; a
 * long scan is read again by another worker rather than holding the stop for
 * up to the reading cap (ANALYSIS_TIMEOUT_MS, 3 minutes).
 */
const STOP_GRACE_MS = 5_000;

/**
 * Graceful stop (SIGTERM): take no new job, give the running ones
 * STOP_GRACE_MS to finish; one still running then is handed back to the
 * queue (failed, retried by another worker). Then the readers and the database close.
 */
export async function stopServerWorker(): Promise<void> {
  const db = await getDb();
  await stopAnalysisQueue(db, { graceful: true, timeoutMs: STOP_GRACE_MS });
  sharedPool().close();
  await closeDb();
}
