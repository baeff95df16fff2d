import type { Db } from "@/db/client";
import { countActiveJobs, recentJobSeconds, type JobCounts } from "@/db/queries/job-counts";
import { withSystemScope, withSystemScopeInTransaction } from "@/db/scope";
import { QueueFullError } from "@/lib/readers/queue-full-error";
import { env } from "@/lib/env";
import { OrganizationBusyError } from "./errors";

/** Assumed length of one job before any has finished, seconds. */
const INITIAL_JOB_SECONDS = 2;
const MAX_RETRY_AFTER_SECONDS = 300;

/** Runs a query across every organization (the system scope): the mean duration behind Retry-After reveals no organization's rows. */
type ServerWide = <T>(work: () => Promise<T>) => Promise<T>;

function retryAfter(jobsAhead: number, meanSeconds: number, readers: number): number {
  return Math.min(MAX_RETRY_AFTER_SECONDS, Math.max(1, Math.ceil((meanSeconds * jobsAhead) / readers)));
}

/**
 * The same decision taken early, before a request's body is read: a request
 * its organization or the server has no room for is refused without reading
 * (and holding) its upload. Advisory only — admitJobs decides for good. From
 * `counts` when the caller has them already (the keyed route's rate-limit
 * statement counts them: KeyedContext.jobCounts), else one statement in the
 * caller's own scope (the count enters the system scope by itself): every
 * analyze request pays it, and a flood of refused requests is made of little else.
 */
export async function precheckAdmission(db: Db, params: { organizationId: string; counts?: JobCounts }): Promise<void> {
  await decide(db, (work) => withSystemScope("job admission", work), { organizationId: params.organizationId, count: 1, enforce: true, lock: false, counts: params.counts });
}

/**
 * Decides, inside the caller's transaction and one admission at a time across
 * every instance (an advisory lock, taken by the same statement that counts),
 * whether `count` more jobs of the organization may be queued:
 * - the organization has at most ANALYSIS_ORG_MAX_JOBS waiting or running (429 beyond);
 * - every organization together at most the readers plus ANALYSIS_QUEUE_MAX
 *   (503 beyond); a compare's files are admitted together when there is room for one more.
 * Jobs count while they wait, or run under a live lease: a dead worker's jobs
 * stop counting once their leases run out (ANALYSIS_LEASE_SECONDS).
 * Returns the priority of the new jobs: an organization's k-th unfinished job
 * waits behind every other organization's (k-1)-th, so a flood from one
 * organization does not make another's single file wait behind it.
 */
export async function admitJobs(tx: Db, params: { organizationId: string; count: number; enforce: boolean }): Promise<number> {
  return decide(tx, (work) => withSystemScopeInTransaction(tx, "job admission", work), { ...params, lock: params.enforce });
}

async function decide(
  db: Db,
  serverWide: ServerWide,
  params: { organizationId: string; count: number; enforce: boolean; lock: boolean; counts?: JobCounts },
): Promise<number> {
  const config = env();
  const counts = params.counts ?? (await countActiveJobs(db, { organizationId: params.organizationId, queueName: config.ANALYSIS_QUEUE_NAME, lock: params.lock }));
  const organizationActive = counts.organizationRunning + counts.organizationQueued;
  if (params.enforce) {
    const readers = config.ANALYSIS_WORKERS;
    if (organizationActive + params.count > config.ANALYSIS_ORG_MAX_JOBS) {
      const mean = (await serverWide(() => recentJobSeconds(db))) ?? INITIAL_JOB_SECONDS;
      throw new OrganizationBusyError(config.ANALYSIS_ORG_MAX_JOBS, retryAfter(organizationActive, mean, readers));
    }
    if (counts.active >= readers + config.ANALYSIS_QUEUE_MAX) {
      const mean = (await serverWide(() => recentJobSeconds(db))) ?? INITIAL_JOB_SECONDS;
      throw new QueueFullError(retryAfter(counts.active - readers + 1, mean, readers));
    }
  }
  return -organizationActive;
}
