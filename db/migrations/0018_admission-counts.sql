-- Job admission's decision in one statement (issue 16): the function takes the
-- admission lock when asked (an admission that will insert, held until the
-- transaction ends, so admissions on every app instance are decided one after
-- another) and counts the queue's unfinished jobs across every organization. It
-- enters the system scope itself (its SET clause, undone when it returns), so the
-- caller's connection or transaction stays in the organization's scope. The count
-- is a statement of its own inside this VOLATILE function, so its snapshot is
-- taken after the lock and sees the admission it waited for. A job counts while it
-- waits, or while it runs under a live lease (a dead worker's jobs stop counting
-- when their leases run out).
CREATE FUNCTION "admission_counts"("organization" text, "queue" text, "take_lock" boolean)
RETURNS TABLE ("active" bigint, "running" bigint, "queued" bigint)
LANGUAGE sql VOLATILE
SET "app.system_scope" = 'job admission'
AS $$
  SELECT pg_advisory_xact_lock(7305114202) WHERE "take_lock";
  SELECT count(*),
         count(*) FILTER (WHERE "organization_id" = "organization" AND "status" = 'running'),
         count(*) FILTER (WHERE "organization_id" = "organization" AND "status" = 'queued')
  FROM "analysis_jobs"
  WHERE "status" IN ('queued', 'running') AND "queue_name" = "queue" AND ("status" = 'queued' OR "lease_expires_at" > now());
$$;
