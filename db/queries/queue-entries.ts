import { sql, type SQL } from "drizzle-orm";

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
