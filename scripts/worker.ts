/**
 * npm run worker: takes analysis jobs from the database (DATABASE_URL) and
 * reads them in its own reader processes, ANALYSIS_WORKERS at a time. Any
 * number of workers and app instances share one PostgreSQL queue. SIGTERM or
 * SIGINT: finishes (or hands back) the running jobs, then exits.
 */
import { startStandaloneWorker, stopServerWorker } from "@/lib/jobs/server-worker";

let stopping = false;
async function stop(signal: string): Promise<void> {
  if (stopping) return;
  stopping = true;
  console.log(JSON.stringify({ worker: "stopping", signal }));
  await stopServerWorker();
  process.exit(0);
}

try {
  await startStandaloneWorker();
} catch (error) {
  console.error(error instanceof Error ? error.message : error);
  process.exit(1);
}
process.once("SIGTERM", () => void stop("SIGTERM"));
process.once("SIGINT", () => void stop("SIGINT"));
console.log(JSON.stringify({ worker: "ready", pid: process.pid }));
