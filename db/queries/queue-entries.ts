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
 * pg-boss's send of one entry (plans.js insertJob, as send fills it for an
 * entry given only an id and a priority: pg-boss 10.4.2, schema 24, pinned by
 * package.json's exact version), as the body of a CTE in the statement that
 * accepts its job, which saves a statement of its own and the transaction
 * around the two: the queue's settings (pgboss.queue) give the entry its dead
 * letter, expiry, retention and retries as pg-boss resolves them when no
 * default is configured. `data` and `priority` are SQL of that statement (its
 * job's row, its admission); `from` names what they read. An upgrade of
 * pg-boss must check this against plans.js: test/jobs/queue-order.test.ts
 * compares an entry written here with one pg-boss's own send writes.
 */
export function insertEntrySql(params: { queue: string; id: string; data: SQL; priority: SQL; from: SQL }): SQL {
  return sql`INSERT INTO pgboss.job (id, name, data, priority, start_after, dead_letter, expire_in, keep_until, retry_limit, retry_delay, retry_backoff, policy)
    SELECT ${params.id}::uuid, q.name, ${params.data}, ${params.priority}, now(), q.dead_letter,
      CASE WHEN q.expire_seconds IS NOT NULL THEN q.expire_seconds * interval '1s' ELSE interval '15 minutes' END,
      now() + CAST(COALESCE((q.retention_minutes * 60)::text, '14 days') AS interval),
      COALESCE(q.retry_limit, 2),
      CASE WHEN COALESCE(q.retry_backoff, false) THEN GREATEST(q.retry_delay, 1) ELSE COALESCE(q.retry_delay, 0) END,
      COALESCE(q.retry_backoff, false),
      q.policy
    FROM pgboss.queue AS q, ${params.from}
    WHERE q.name = ${params.queue}
    ON CONFLICT DO NOTHING
    RETURNING id`;
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

