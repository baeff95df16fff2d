-- A job's take and its ending find its queue entry by the queue's name and the entry's id: pg-boss's
-- primary key (name, id). They run on plans made once per connection (the statement cache, and
-- PL/pgSQL's generic plans, 0023), and a plan made while a queue's partition is empty, as a server's
-- first jobs make it, costs every path alike. Two such plans read the queue's whole history instead,
-- and nothing planned them again where no ANALYZE runs (PGlite never runs one, nor PostgreSQL
-- without autovacuum): after 5,000 jobs an ending read 1,948 buffers (2.5 ms) and a take 2,748.
--
-- 1. The webhook lookup's index (0017) led with the queue's name, as the primary key does, and the
--    ending's lookup took it, filtering the queue's entries by id. It now holds the job's id alone,
--    so a name and an id match only the primary key. pg-boss creates its schema at its first start:
--    here for a database that has it already; the queue makes the same change at its start
--    (lib/jobs/start-queues.ts).
DO $$
BEGIN
  IF to_regclass('pgboss.job') IS NOT NULL THEN
    DROP INDEX IF EXISTS pgboss."job_data_job_id_idx";
    CREATE INDEX IF NOT EXISTS "job_entry_job_id_idx" ON pgboss.job ((data->>'jobId'));
  END IF;
EXCEPTION WHEN insufficient_privilege THEN
  RAISE NOTICE 'index on pgboss.job not changed here: its owner (the app role) changes it at the queue''s start';
END $$;
--> statement-breakpoint
-- 2. The fetch joined the entry it picked (`next`) to the queue for its update, and the plan scanned
--    the queue's partition by name, testing each entry's id against the pick. The pick's id is now a
--    value (a scalar subquery, computed once) that the update looks up by the primary key. The rest
--    is 0020's fetch as it was, with its settings (0020, 0023), which CREATE OR REPLACE sets anew.
CREATE OR REPLACE FUNCTION "fetch_analysis_entry"("queue" text, "max_running" integer)
RETURNS TABLE ("entry_id" uuid, "entry_data" jsonb, "entry_priority" integer, "entry_retry_count" integer)
LANGUAGE plpgsql VOLATILE
SET "app.system_scope" = 'job fetch'
SET "plan_cache_mode" = 'force_generic_plan'
AS $$
BEGIN
  RETURN QUERY
  WITH capped AS (
    SELECT job.organization_id FROM analysis_jobs AS job
    WHERE job.queue_name = "queue" AND job.status = 'running' AND job.lease_expires_at > now()
    GROUP BY job.organization_id
    HAVING count(*) >= "max_running"
  ), next AS (
    SELECT entry.id FROM pgboss.job AS entry
    WHERE entry.name = "queue" AND entry.state < 'active' AND entry.start_after < now()
      AND NOT EXISTS (SELECT 1 FROM capped WHERE capped.organization_id = entry.data->>'organizationId')
    ORDER BY entry.priority DESC, entry.created_on, entry.id
    LIMIT 1
    FOR UPDATE SKIP LOCKED
  )
  UPDATE pgboss.job AS entry SET
    state = 'active',
    started_on = now(),
    retry_count = CASE WHEN entry.started_on IS NOT NULL THEN entry.retry_count + 1 ELSE entry.retry_count END
  WHERE entry.name = "queue" AND entry.id = (SELECT next.id FROM next)
  RETURNING entry.id, entry.data, entry.priority, entry.retry_count;
END
$$;
