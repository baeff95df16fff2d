-- Admission and the new jobs' priority in the accepting statement itself (issue
-- 16): a job was accepted in five round trips (BEGIN, admission_counts, the job's
-- insert, pg-boss's insert of its queue entry, COMMIT); with this function the
-- job's insert names its queue through the admission, so one statement admits,
-- stores and queues a job, atomic without a transaction around it.
--
-- When `enforce`, the function first takes the admission lock (the one
-- admission_counts takes, held until the calling statement's transaction ends,
-- so admissions on every app instance are decided one after another), then
-- counts the queue's unfinished jobs in a statement of its own, whose snapshot
-- is taken after the lock. It refuses `jobs` more of the organization's jobs
-- beyond `max_jobs` waiting or running (SQLSTATE SH429), and any job once
-- `max_active` of every organization's are (SH503); the DETAIL is the count
-- behind the refusal, for Retry-After. A job counts while it waits, or while it
-- runs under a live lease. Without `enforce` (uploads already stored) it only
-- counts.
--
-- It returns the new jobs' priority: minus the organization's unfinished jobs,
-- and never above the lowest priority of its entries still waiting (a later job
-- must not overtake an earlier one of the same organization), read after the
-- lock too. pg-boss's table is read here as its fetch reads it (pg-boss 10.4.2,
-- schema 24, pinned by package.json's exact version). PL/pgSQL, so the body is
-- not checked against pgboss.job when it is created: pg-boss makes its schema
-- after these migrations on a fresh database. It counts every organization's
-- jobs, so it enters the system scope for itself (its SET clause, undone when it
-- returns), as admission_counts does.
CREATE FUNCTION "admit_analysis_jobs"("organization" text, "queue" text, "jobs" integer, "enforce" boolean, "max_jobs" integer, "max_active" integer)
RETURNS integer
LANGUAGE plpgsql VOLATILE
SET "app.system_scope" = 'job admission'
AS $$
DECLARE
  "all_active" bigint;
  "organization_active" bigint;
  "lowest_waiting" integer;
BEGIN
  IF "enforce" THEN
    PERFORM pg_advisory_xact_lock(7305114202);
  END IF;
  SELECT count(*), count(*) FILTER (WHERE "job"."organization_id" = "organization")
    INTO "all_active", "organization_active"
    FROM "analysis_jobs" AS "job"
    WHERE "job"."status" IN ('queued', 'running') AND "job"."queue_name" = "queue"
      AND ("job"."status" = 'queued' OR "job"."lease_expires_at" > now());
  IF "enforce" AND "organization_active" + "jobs" > "max_jobs" THEN
    RAISE EXCEPTION 'the organization already has % analysis jobs waiting or running', "organization_active"
      USING ERRCODE = 'SH429', DETAIL = "organization_active"::text;
  END IF;
  IF "enforce" AND "all_active" >= "max_active" THEN
    RAISE EXCEPTION 'the analysis queue is full: % jobs waiting or running', "all_active"
      USING ERRCODE = 'SH503', DETAIL = "all_active"::text;
  END IF;
  SELECT min("entry"."priority") INTO "lowest_waiting"
    FROM pgboss.job AS "entry"
    WHERE "entry"."name" = "queue" AND "entry"."state" < 'active' AND "entry"."data"->>'organizationId' = "organization";
  -- LEAST ignores a NULL: no entry of the organization waits.
  RETURN LEAST(-"organization_active", "lowest_waiting");
END
$$;
