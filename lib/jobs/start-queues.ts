import PgBoss from "pg-boss";
import type { Db } from "@/db/client";
import { analysisWallTimeoutMs, type Env } from "@/lib/env";
import { logError } from "@/lib/log";
import { clientExecutor } from "./sql-executor";

/**
 * A job is taken again (pg-boss's expiry) after twice the wall-clock backstop of reading a document:
 * never while its reader still runs (a reader that spends its processor-time budget under load runs
 * up to the backstop). A worker that died is noticed far sooner, by its lease (ANALYSIS_LEASE_SECONDS).
 */
const EXPIRY_PER_WALL_TIMEOUT = 2;
/** Attempts after the first when a worker dies or fails for a reason that is not the file's; waits double each time. */
const RETRY_DELAY_SECONDS = 5;
/** A delivery whose receiver never answers is taken again after this long (the post itself times out far sooner). */
const WEBHOOK_EXPIRY_SECONDS = 120;

/** pg-boss started on a database, with the analysis queue, its dead letters and its webhook deliveries created. */
interface StartedQueues {
  boss: PgBoss;
  /** pg-boss's executor on the database handle, for the queue's own statements on pg-boss's tables. */
  executor: PgBoss.Db;
}

/** The queue of `name`'s webhook deliveries. */
export function webhookQueueOf(name: string): string {
  return `${name}-webhooks`;
}

/**
 * Starts pg-boss on `db` and creates the analysis queue (`ANALYSIS_QUEUE_NAME`),
 * its dead letters and its webhook deliveries, with their retries and expiry.
 */
export async function startQueues(db: Db, config: Env): Promise<StartedQueues> {
  const executor = clientExecutor(db);
  const boss = new PgBoss({
    db: executor,
    // Cron schedules are not used; maintenance finds jobs whose worker died (expired) and retries them.
    schedule: false,
    maintenanceIntervalSeconds: config.ANALYSIS_MAINTENANCE_SECONDS,
  });
  boss.on("error", (error) => logError("analysis queue", error));
  await boss.start();
  await createWebhookLookupIndex(executor);
  const name = config.ANALYSIS_QUEUE_NAME;
  const failed = `${name}-failed`;
  const webhooks = webhookQueueOf(name);
  // Creating a queue that exists is a no-op; every process creates them, whichever starts first.
  await createQueueOnce(boss, failed);
  // A webhook delivery whose receiver failed is retried with backoff, then given up (every attempt is recorded).
  await createQueueOnce(boss, webhooks, {
    name: webhooks,
    retryLimit: config.WEBHOOK_RETRY_LIMIT,
    retryDelay: config.WEBHOOK_RETRY_DELAY_SECONDS,
    retryBackoff: true,
    expireInSeconds: WEBHOOK_EXPIRY_SECONDS,
  });
  const expireInSeconds = Math.ceil((analysisWallTimeoutMs(config) / 1000) * EXPIRY_PER_WALL_TIMEOUT);
  await createQueueOnce(boss, name, { name, deadLetter: failed, retryLimit: config.ANALYSIS_RETRY_LIMIT, retryDelay: RETRY_DELAY_SECONDS, retryBackoff: true, expireInSeconds });
  // A queue made by an earlier start keeps its settings (create does nothing then): its expiry follows this start's backstop.
  await boss.updateQueue(name, { name, expireInSeconds });
  return { boss, executor };
}

/**
 * Left to others: another process creating the same index at the same moment
 * (duplicate name, or its catalog row), or pg-boss's tables owned by another
 * role than this one (DATABASE_APP_ROLE on a schema the owner made: the
 * owner's migrations 0017 and 0024 make the index there).
 */
const INDEX_LEFT_TO_OTHERS = new Set(["42P07", "23505", "42501"]);

/**
 * GET /v1/analyses/{id} finds a job's webhook delivery by the job's id in the
 * queue's entries (webhookEntry). pg-boss creates its schema at its first
 * start, after the app's migrations, so the index is made here (migrations
 * 0017 and 0024 make it on a database that already had the schema); on the
 * partitioned table it covers every queue's partition, present and future.
 * It holds the job's id alone: led by the queue's name, as pg-boss's primary
 * key (name, id) is, it could be chosen over the key for the entry lookups of
 * every take and ending (migration 0024), which then read the whole queue.
 */
async function createWebhookLookupIndex(executor: PgBoss.Db): Promise<void> {
  for (const statement of [`DROP INDEX IF EXISTS pgboss.job_data_job_id_idx`, `CREATE INDEX IF NOT EXISTS job_entry_job_id_idx ON pgboss.job ((data->>'jobId'))`]) {
    await executor.executeSql(statement, []).catch((error: { code?: string }) => {
      if (!INDEX_LEFT_TO_OTHERS.has(error.code ?? "")) throw error;
    });
  }
}

/** PostgreSQL's codes for losing a race to create the same thing: deadlock, duplicate table, duplicate key. */
const CREATE_RACE_CODES = new Set(["40P01", "42P07", "23505"]);
/** A deadlock: what deleting a queue can lose to another deletion. */
const DELETE_RACE_CODES = new Set(["40P01"]);
/** Tries at creating or deleting a queue before a lost race's error is thrown. */
const RACE_ATTEMPTS = 5;

/**
 * Runs pg-boss's queue DDL (a row and a partition table in one statement)
 * again when PostgreSQL aborted it for losing a race (`codes`) to another
 * process or test file doing the same at the same moment.
 */
async function retryingLostRaces<T>(codes: ReadonlySet<string>, work: () => Promise<T>): Promise<T> {
  for (let attempt = 1; ; attempt++) {
    try {
      return await work();
    } catch (error) {
      const code = (error as { code?: unknown }).code;
      if (typeof code !== "string" || !codes.has(code) || attempt >= RACE_ATTEMPTS) throw error;
    }
  }
}

/**
 * Creates a queue unless it exists. Processes starting at once on a fresh
 * database all create it, and pg-boss's create_queue deadlocks between them:
 * PostgreSQL aborts one, which then finds the queue the other made when it
 * tries again.
 */
export function createQueueOnce(boss: PgBoss, name: string, options?: PgBoss.Queue): Promise<void> {
  return retryingLostRaces(CREATE_RACE_CODES, () => boss.createQueue(name, options));
}

/**
 * Deletes a queue (tests' own queues: AnalysisQueue.destroy). Test files
 * ending at once drop their queues' partitions at once, and pg-boss's
 * delete_queue deadlocks between them as create_queue does.
 */
export function deleteQueue(boss: PgBoss, name: string): Promise<void> {
  return retryingLostRaces(DELETE_RACE_CODES, () => boss.deleteQueue(name));
}
