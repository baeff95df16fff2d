/**
 * Next.js calls register() once when the server starts, before it serves:
 * the database is migrated, the readers start, and the in-process analysis
 * worker takes the jobs that waited through a restart (lib/jobs/server-worker.ts).
 */
export async function register(): Promise<void> {
  if (process.env.NEXT_RUNTIME !== "nodejs") return;
  const { startServerWorker, stopServerWorker } = await import("./lib/jobs/server-worker");
  await startServerWorker();
  process.once("SIGTERM", () => void stopServerWorker().finally(() => process.exit(0)));
}
