import type { Db } from "@/db/client";
import { withOrganizationScope, withoutScope } from "@/db/scope";
import { sharedPool } from "@/lib/readers/ingest-isolated";
import type { ProcessPool } from "@/lib/readers/pool";
import { env } from "@/lib/env";
import { listLeasedJobs, renewJobLease } from "@/db/queries/analysis-jobs";
import { logError } from "@/lib/log";
import { analysisQueue, LEASE_RENEWALS, type QueuedJob } from "./analysis-queue";
import { failAnalysisJob, runAnalysisJob } from "./run-analysis";

const WORKERS = Symbol.for("shipshape.analysis-workers");

type WorkerRegistry = WeakMap<Db, Promise<void>>;

function registry(): WorkerRegistry {
  const holder = globalThis as typeof globalThis & { [WORKERS]?: WorkerRegistry };
  return (holder[WORKERS] ??= new WeakMap());
}

/**
 * Takes analysis jobs of `db`'s queue in this process: `concurrency` at a
 * time (one per reader of `pool`, so a job taken is a job being read). Jobs
 * the queue gave up on (every attempt's worker died, or failed for a reason
 * not the file's) end failed with that reason, never left `analyzing`.
 * The same process delivers the webhooks of finished jobs. Each job and each
 * delivery runs in its organization's row-level security scope; the workers
 * themselves start in none, whichever request first started them. Started
 * once per database handle.
 */
export function startAnalysisWorker(db: Db, options: { concurrency: number; pool: ProcessPool }): Promise<void> {
  const workers = registry();
  let started = workers.get(db);
  if (!started) {
    const leaseSeconds = env().ANALYSIS_LEASE_SECONDS;
    started = withoutScope(() =>
      analysisQueue(db).then((queue) =>
        queue.work({
          concurrency: options.concurrency,
          handle: (job, claim, entry) =>
            withOrganizationScope(job.organizationId, () => whileLeased(db, job, leaseSeconds, () => runAnalysisJob(db, job, claim, options.pool, entry))),
          handleAbandoned: (job, reason) =>
            withOrganizationScope(job.organizationId, () => failAnalysisJob(db, { id: job.jobId, organizationId: job.organizationId }, "internal", reason)),
          // Loaded on first delivery: the delivery is server-only code (the guarded fetcher), and
          // scripts and benches that only import the queue run without the react-server condition.
          deliver: (job, attempt) =>
            withOrganizationScope(job.organizationId, () => import("@/lib/webhooks/deliver").then(({ deliverWebhook }) => deliverWebhook(db, job, attempt))),
          leased: (organizationId, jobIds) => withOrganizationScope(organizationId, () => listLeasedJobs(db, { organizationId, jobIds })),
          leaseSeconds,
        }),
      ),
    );
    started.catch(() => workers.delete(db));
    workers.set(db, started);
  }
  return started;
}

/**
 * Runs one attempt while renewing its job's lease (the claim took the
 * first, takeAnalysisEntry): a worker that dies, or can no longer reach the database, stops
 * renewing, and within a lease the job stops counting against the caps and is
 * handed back (AnalysisQueue.sweepDeadWorkers). A failed renewal is logged;
 * the next one may succeed.
 */
async function whileLeased<T>(db: Db, job: QueuedJob, leaseSeconds: number, attempt: () => Promise<T>): Promise<T> {
  const renew = () =>
    renewJobLease(db, { organizationId: job.organizationId, jobId: job.jobId, leaseSeconds }).catch((error: unknown) => logError(`analysis job ${job.jobId} lease`, error));
  const timer = setInterval(renew, (leaseSeconds * 1000) / LEASE_RENEWALS);
  try {
    return await attempt();
  } finally {
    clearInterval(timer);
  }
}

/** The server's own worker (ANALYSIS_IN_PROCESS_WORKER, on by default), on the shared reader pool. */
export async function ensureInProcessWorker(db: Db): Promise<void> {
  const config = env();
  if (!config.ANALYSIS_IN_PROCESS_WORKER) return;
  await startAnalysisWorker(db, { concurrency: config.ANALYSIS_WORKERS, pool: sharedPool() });
}

/** Forgets that `db` has a worker (after its queue was stopped). */
export function forgetAnalysisWorker(db: Db): void {
  registry().delete(db);
}
