-- A worker's claim of a job in one statement (issue 16; on PostgreSQL it was
-- four: BEGIN, the claim lock, the claim, COMMIT). The function's first
-- statement takes the organization's claim lock (the advisory lock the claim
-- took before this migration, so a worker of the previous release still waits
-- for ours), held until the calling statement's transaction ends; the claim is
-- a statement of its own inside this VOLATILE function, so its snapshot is taken
-- after the lock and counts the running job another worker's claim committed
-- while this one waited: two workers never both take an organization's last
-- running place. The job is taken (`running`, one more attempt, a lease of
-- `lease_seconds`) unless the organization already runs `max_running` other jobs
-- under a live lease (a retried job, still `running` from its last attempt, is
-- not counted, nor a job whose worker died); a web upload's set file shows
-- `analyzing` in the same statement, and the organization's learned layouts come
-- back with the job. Not taken: 'deferred' while the job still waits, read in a
-- statement of its own after the claim (a job ended meanwhile is not deferred),
-- 'gone' once it has ended or was deleted with its set. No SET clause: every row
-- it reads or writes is the organization's, so it runs in the caller's
-- organization scope and row-level security binds it as it binds the caller.
CREATE FUNCTION "claim_analysis_job"("claim_organization" text, "claim_job" text, "max_running" integer, "lease_seconds" integer)
RETURNS TABLE ("outcome" text, "job" "analysis_jobs", "layouts" json)
LANGUAGE plpgsql VOLATILE
AS $$
BEGIN
  PERFORM pg_advisory_xact_lock(730511, hashtext("claim_organization"));
  RETURN QUERY
    WITH "claimed" AS (
      UPDATE "analysis_jobs" AS "taken"
      -- A retried attempt reads the file from its first page again.
      SET "status" = 'running', "attempts" = "taken"."attempts" + 1, "started_at" = now(),
          "lease_expires_at" = now() + make_interval(secs => "lease_seconds"),
          "pages_done" = NULL, "pages_total" = NULL, "estimated_end_at" = NULL
      WHERE "taken"."organization_id" = "claim_organization" AND "taken"."id" = "claim_job" AND "taken"."status" IN ('queued', 'running')
        AND (SELECT count(*) FROM "analysis_jobs" AS "other"
             WHERE "other"."organization_id" = "claim_organization" AND "other"."status" = 'running'
               AND "other"."lease_expires_at" > now() AND "other"."id" <> "claim_job") < "max_running"
      RETURNING "taken"
    ), "shown" AS (
      UPDATE "set_files" AS "file" SET "status" = 'analyzing', "error_detail" = NULL
      FROM "claimed" WHERE "file"."organization_id" = "claim_organization" AND "file"."id" = ("claimed"."taken")."set_file_id"
    )
    SELECT 'taken', "claimed"."taken",
           (SELECT coalesce(json_agg("layout" ORDER BY "layout"."created_at", "layout"."id"), '[]'::json)
            FROM "learned_layouts" AS "layout" WHERE "layout"."organization_id" = "claim_organization")
    FROM "claimed";
  IF FOUND THEN RETURN; END IF;
  RETURN QUERY
    SELECT CASE WHEN EXISTS (SELECT FROM "analysis_jobs" AS "waiting"
                             WHERE "waiting"."organization_id" = "claim_organization" AND "waiting"."id" = "claim_job"
                               AND "waiting"."status" IN ('queued', 'running'))
                THEN 'deferred' ELSE 'gone' END,
           NULL::"analysis_jobs", NULL::json;
END
$$;
