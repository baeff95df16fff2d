/**
 * npm run worker: takes analysis jobs from the database (DATABASE_URL) and
 * reads them in its own reader processes, ANALYSIS_WORKERS at a time. Any
 * number of workers and app instances share one PostgreSQL queue. At start it
 * removes the uploads that died mid-body, and again periodically while it
 * runs (as a server does: a host that only runs workers sweeps too). SIGTERM
 * or SIGINT: finishes (or hands back) the running jobs, then exits.
 */
import { getDb } from "@/db/client";
import { sweepAbandonedUploads, sweepAbandonedUploadsPeriodically } from "@/lib/api/upload-chunks";
import { startStandaloneWorker, stopServerWorker } from "@/lib/jobs/server-worker";

let stopping = false;
let stopSweeps: () => Promise<void> = async () => undefined;
async function stop(signal: string): Promise<void> {
  if (stopping) return;
  stopping = true;
  console.log(JSON.stringify({ worker: "stopping", signal }));
  await Promise.all([stopSweeps(), stopServerWorker()]);
  process.exit(0);
}

try {
  await startStandaloneWorker();
  const db = await getDb();
  await sweepAbandonedUploads(db);
  stopSweeps = sweepAbandonedUploadsPeriodically(db);
} catch (error) {
  console.error(error instanceof Error ? error.message : error);
  process.exit(1);
}
process.once("SIGTERM", () => void stop("SIGTERM"));
process.once("SIGINT", () => void stop("SIGINT"));
console.log(JSON.stringify({ worker: "ready", pid: process.pid }));
