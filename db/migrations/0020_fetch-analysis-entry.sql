-- A worker's next analysis entry, skipping organizations that already run as many
-- jobs as they may (ANALYSIS_ORG_MAX_RUNNING). pg-boss hands entries out by
-- priority alone: a worker that took one of a capped organization's entries had
-- its claim deferred and queued it again a second later, so one organization
-- sending more requests than it may run at once waited out those seconds, and
-- every deferral cost its statements. The entry is taken as pg-boss's fetch takes
-- it (plans.js fetchNextJob for one entry, pg-boss 10.4.2, schema 24: `active`,
-- started now, its retry counted when it had started before; pinned by
-- package.json's exact version). The running count reads every organization's
-- jobs, so the function enters the system scope for itself (its SET clause, undone
-- when it returns), as admission_counts does. The claim still decides: two workers
-- of different processes may both fetch an organization's entries for its last
-- place, and the claim (its lock) defers one. PL/pgSQL, so the body is not checked
-- against pgboss.job when it is created: pg-boss makes its schema after these
-- migrations on a fresh database.
CREATE FUNCTION "fetch_analysis_entry"("queue" text, "max_running" integer)
RETURNS TABLE ("entry_id" uuid, "entry_data" jsonb, "entry_priority" integer, "entry_retry_count" integer)
LANGUAGE plpgsql VOLATILE
SET "app.system_scope" = 'job fetch'
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
  FROM next
  WHERE entry.name = "queue" AND entry.id = next.id
  RETURNING entry.id, entry.data, entry.priority, entry.retry_count;
END
$$;
