import { listenHostFor } from "./scripts/listen-host.mjs";

/**
 * Next.js calls register() once when the server starts, before it serves.
 * Sign-in comes first: a configuration that would weaken it stops the process
 * here instead of serving, and the client-address hook is in place before any
 * request (lib/auth/startup.ts). Then the database is migrated, the readers
 * start, the in-process analysis worker takes the jobs that waited
 * through a restart (lib/jobs/server-worker.ts), and the analyze route runs
 * a few times as an organization of the server's own (lib/api/warm-up.ts):
 * in this process first, then, once Next serves, over HTTP to the server
 * itself, which loads and warms the route's own bundle.
 * Uploads that a process which died mid-request left unreceived in chunked
 * storage are removed (sweepAbandonedUploads, which `npm run worker` calls too),
 * at start and then periodically while the server runs.
 */
export async function register(): Promise<void> {
  if (process.env.NEXT_RUNTIME !== "nodejs") return;
  const { startAuth } = await import("@/lib/auth/startup");
  await startAuth();
  const [{ startServerWorker, stopServerWorker }, { warmUpAnalyzeRoute }] = await Promise.all([import("./lib/jobs/server-worker"), import("@/lib/api/warm-up")]);
  const origin = ownOrigin();
  await startServerWorker({
    warmUp: (db) => warmUpAnalyzeRoute(db),
    warmUpServed: origin ? (db) => warmUpAnalyzeRoute(db, { origin }) : undefined,
  });
  const [{ getDb }, { sweepAbandonedUploads, sweepAbandonedUploadsPeriodically }] = await Promise.all([import("@/db/client"), import("@/lib/api/upload-chunks")]);
  const db = await getDb();
  await sweepAbandonedUploads(db);
  const stopSweeps = sweepAbandonedUploadsPeriodically(db);
  process.once("SIGTERM", () => void Promise.all([stopSweeps(), stopServerWorker()]).finally(() => process.exit(0)));
}

/** Addresses that mean "every interface": the server is reached on loopback. */
const ANY_ADDRESS = new Set(["0.0.0.0", "::"]);

/** Where this server can reach itself: the port Next listens on (it sets PORT), on the host `npm start` chose. */
function ownOrigin(): string | undefined {
  const port = process.env.PORT;
  if (!port) return undefined;
  const listening = listenHostFor(process.env.NEXTAUTH_URL, process.env.HOSTNAME);
  const host = !listening || ANY_ADDRESS.has(listening) ? "127.0.0.1" : listening;
  return `http://${host.includes(":") ? `[${host}]` : host}:${port}`;
}
