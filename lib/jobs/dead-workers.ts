import type PgBoss from "pg-boss";

/** What a job handed back for a dead worker records as its failure (and its reason, if it was the last attempt). */
const DEAD_WORKER_MESSAGE = "its worker stopped (died, or lost the database) while reading it";
/** What pg-boss records for an entry it expired (failJobsByTimeout). */
const PG_BOSS_EXPIRY_MESSAGE = "job failed by timeout in active state";

/** How the sweep tells a dead worker's job from a running one: its lease (QueueHandlers). */
export interface Leases {
  /** Of the given jobs (one organization's), those whose worker holds a live lease. */
  leased: (organizationId: string, jobIds: string[]) => Promise<string[]>;
  /** ANALYSIS_LEASE_SECONDS. */
  leaseSeconds: number;
}

/** The queue swept: its pg-boss, executor and name, and the entries this process's own workers are running. */
interface SweptQueue {
  boss: PgBoss;
  executor: PgBoss.Db;
  name: string;
  running: ReadonlySet<string>;
}

/**
 * Hands back the jobs whose worker died: entries taken more than a lease ago
 * by another process whose job holds no live lease (its worker stopped
 * renewing it, or died between taking the entry and claiming the job) are
 * failed, so the queue retries them with backoff or, after the last attempt,
 * ends them failed with the reason. pg-boss's own expiry (twice the reading
 * cap) would do the same, but far later. Two processes sweeping at once only
 * hand the same entry back twice.
 */
export async function sweepDeadWorkers(queue: SweptQueue, leases: Leases): Promise<number> {
  const { rows } = await queue.executor.executeSql(
    "SELECT id, data FROM pgboss.job WHERE name = $1 AND state = 'active' AND started_on < now() - make_interval(secs => $2)",
    [queue.name, leases.leaseSeconds],
  );
  const byOrganization = new Map<string, { entryId: string; jobId: string }[]>();
  for (const row of rows as { id: string; data: { jobId: string; organizationId: string } }[]) {
    if (queue.running.has(row.id)) continue;
    const entries = byOrganization.get(row.data.organizationId) ?? [];
    entries.push({ entryId: row.id, jobId: row.data.jobId });
    byOrganization.set(row.data.organizationId, entries);
  }
  const dead: string[] = [];
  for (const [organizationId, entries] of byOrganization) {
    const live = new Set(await leases.leased(organizationId, entries.map((entry) => entry.jobId)));
    dead.push(...entries.filter((entry) => !live.has(entry.jobId)).map((entry) => entry.entryId));
  }
  // One at a time: pg-boss records a failure's output only for a single id.
  for (const entryId of dead) await queue.boss.fail(queue.name, entryId, { message: DEAD_WORKER_MESSAGE });
  return dead.length;
}

/**
 * Why a job the queue gave up on failed, in words for its caller: a dead
 * worker is said so; any other failure's message may be internal (a stack, SQL)
 * and is not repeated.
 */
export function abandonedReason(output: object | undefined): string {
  const message = (output as { message?: unknown } | undefined)?.message;
  const deadWorker = message === DEAD_WORKER_MESSAGE || message === PG_BOSS_EXPIRY_MESSAGE;
  return deadWorker ? `The job was abandoned after its last attempt: ${DEAD_WORKER_MESSAGE}.` : "The job was abandoned after its last attempt.";
}
