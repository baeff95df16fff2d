import { sql, type SQL } from "drizzle-orm";
import { afterAcceptanceCommit } from "./asynchronous-commit";

/** The queue entry (a pgboss.job row) a worker runs: the statement that ends its job also completes it. */
export interface QueueEntry {
  queue: string;
  id: string;
}

/**
 * pg-boss's complete of one entry (plans.js completeJobs: `completed`, only while
 * `active`, no output), as the body of a CTE in the job's ending statement, which
 * saves the round trip of a statement of its own. It writes pg-boss's table
 * directly: its schema is pinned by package.json's exact pg-boss version (10.4.2,
 * schema 24); an upgrade must check this against plans.js. An entry no longer
 * active (handed back meanwhile, so retried or failed) is left as it is.
 */
export function completeEntrySql(entry: QueueEntry): SQL {
  return sql`UPDATE pgboss.job SET completed_on = now(), state = 'completed', output = NULL
    WHERE name = ${entry.queue} AND id = ${entry.id}::uuid AND state = 'active' RETURNING id`;
}

/**
 * Whether the queue holds an entry that pg-boss's fetch would hand out now
 * (plans.js fetchNextJob's condition): a worker that just ended a job looks
 * for the next at once only then, instead of after every job.
 */
export function entryWaitingSql(queue: string): SQL {
  return sql`EXISTS (SELECT 1 FROM pgboss.job WHERE name = ${queue} AND state < 'active' AND start_after < now())`;
}

/** A queue entry as a worker runs it: what pg-boss's fetch gives with its metadata, narrowed to what is used. */
export interface FetchedEntry<T> {
  id: string;
  data: T;
  priority: number;
  retryCount: number;
}

/** What runs a statement on pg-boss's connection (pg-boss's Db, as lib/jobs/sql-executor.ts makes it). */
interface SqlExecutor {
  executeSql(text: string, values: unknown[]): Promise<{ rows: unknown[] }>;
}

type FetchedRow<T> = { entry_id: string; entry_data: T | string; entry_priority: number; entry_retry_count: number };

/**
 * Takes the next entry of `queue` whose organization runs fewer than
 * `maxRunning` jobs (`active`, as pg-boss's fetch takes one: migration 0020's
 * fetch_analysis_entry); undefined when none may start now. A step after its
 * job was accepted: on PostgreSQL (not `embedded`) its commit does not wait for
 * the disk (afterAcceptanceCommit).
 */
export async function fetchAnalysisEntry<T>(executor: SqlExecutor, queue: string, maxRunning: number, embedded: boolean): Promise<FetchedEntry<T> | undefined> {
  const { rows } = await executor.executeSql(
    `SELECT entry_id, entry_data, entry_priority, entry_retry_count FROM fetch_analysis_entry($1, $2), ${afterAcceptanceCommit(embedded)} AS commit_mode`,
    [queue, maxRunning],
  );
  const row = rows[0] as FetchedRow<T> | undefined;
  if (!row) return undefined;
  // jsonb may reach here as text where no type parser is applied.
  const data = (typeof row.entry_data === "string" ? JSON.parse(row.entry_data) : row.entry_data) as T;
  return { id: row.entry_id, data, priority: Number(row.entry_priority), retryCount: Number(row.entry_retry_count) };
}
