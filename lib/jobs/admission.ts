import type { Db } from "@/db/client";
import { databaseErrorOf } from "@/db/database-error";
import { type AdmissionRule, ORGANIZATION_BUSY_STATE, QUEUE_FULL_STATE } from "@/db/queries/job-acceptance";
import { countActiveJobs, recentJobSeconds, type JobCounts } from "@/db/queries/job-counts";
import { withSystemScope } from "@/db/scope";
import { QueueFullError } from "@/lib/readers/queue-full-error";
import { env, type Env } from "@/lib/env";
import { OrganizationBusyError } from "./errors";

/** Assumed length of one job before any has finished, seconds. */
const INITIAL_JOB_SECONDS = 2;
const MAX_RETRY_AFTER_SECONDS = 300;

/**
 * The caps of admission:
 * - the organization has at most ANALYSIS_ORG_MAX_JOBS waiting or running (429 beyond);
 * - every organization together at most the readers plus ANALYSIS_QUEUE_MAX
 *   (503 beyond); a compare's files are admitted together when there is room for one more.
 * Jobs count while they wait, or run under a live lease: a dead worker's jobs
 * stop counting once their leases run out (ANALYSIS_LEASE_SECONDS).
 */
function capsOf(config: Env): Pick<AdmissionRule, "maxJobs" | "maxActive"> {
  return { maxJobs: config.ANALYSIS_ORG_MAX_JOBS, maxActive: config.ANALYSIS_WORKERS + config.ANALYSIS_QUEUE_MAX };
}

/**
 * The rule the accepting statement decides by (acceptAnalysisJob, one
 * admission at a time across every instance), for `jobs` more jobs of an
 * organization; `enforce` false only counts. The new jobs' priority comes back
 * with them: an organization's k-th unfinished job waits behind every other
 * organization's (k-1)-th, so a flood from one organization does not make
 * another's single file wait behind it.
 */
export function admissionRule(params: { jobs: number; enforce: boolean }): AdmissionRule {
  return { ...params, ...capsOf(env()) };
}

async function retryAfter(db: Db, jobsAhead: number): Promise<number> {
  // The mean duration reveals no organization's rows: it is read across every organization.
  const meanSeconds = (await withSystemScope("job admission", () => recentJobSeconds(db))) ?? INITIAL_JOB_SECONDS;
  const readers = env().ANALYSIS_WORKERS;
  return Math.min(MAX_RETRY_AFTER_SECONDS, Math.max(1, Math.ceil((meanSeconds * jobsAhead) / readers)));
}

/** The 429 of an organization with `organizationActive` jobs waiting or running, which the new one would wait behind. */
async function organizationBusy(db: Db, organizationActive: number): Promise<OrganizationBusyError> {
  return new OrganizationBusyError(env().ANALYSIS_ORG_MAX_JOBS, await retryAfter(db, organizationActive));
}

/** The 503 of a server with `active` jobs waiting or running: the readers take some at once, the rest are ahead. */
async function queueFull(db: Db, active: number): Promise<QueueFullError> {
  return new QueueFullError(await retryAfter(db, active - env().ANALYSIS_WORKERS + 1));
}

/**
 * The same decision taken early, before a request's body is read: a request
 * its organization or the server has no room for is refused without reading
 * (and holding) its upload. Advisory only — the accepting statement decides
 * for good. From `counts` when the caller has them already (the keyed
 * route's rate-limit statement counts them: KeyedContext.jobCounts), else one
 * statement in the caller's own scope (the count enters the system scope by
 * itself): every analyze request pays it, and a flood of refused requests is
 * made of little else.
 */
export async function precheckAdmission(db: Db, params: { organizationId: string; counts?: JobCounts }): Promise<void> {
  const config = env();
  const { maxJobs, maxActive } = capsOf(config);
  const counts = params.counts ?? (await countActiveJobs(db, { organizationId: params.organizationId, queueName: config.ANALYSIS_QUEUE_NAME }));
  const organizationActive = counts.organizationRunning + counts.organizationQueued;
  if (organizationActive + 1 > maxJobs) throw await organizationBusy(db, organizationActive);
  if (counts.active >= maxActive) throw await queueFull(db, counts.active);
}

/**
 * A refusal of the accepting statement (admit_analysis_jobs) as the error the
 * API answers with, its Retry-After from the recent jobs' length; any other
 * error as it is.
 */
export async function refusalOf(db: Db, error: unknown): Promise<unknown> {
  const refused = databaseErrorOf(error);
  const count = Number(refused?.detail);
  if (refused?.code === ORGANIZATION_BUSY_STATE) return organizationBusy(db, count);
  if (refused?.code === QUEUE_FULL_STATE) return queueFull(db, count);
  return error;
}
