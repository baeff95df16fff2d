-- A worker's next entry and the claim of its job in one statement (issue 16: they
-- were two round trips, fetch_analysis_entry's and claim_analysis_job's, one
-- after the other for every job). The fetch enters the system scope for itself
-- (its SET clause), as before. The claim then runs in the entry's organization's
-- scope, as the worker's own claim statement did: set here for the claim only and
-- put back as it was, whatever scope the calling connection had, so row-level
-- security binds the claim as it bound the worker. The organization and job come
-- from the entry, which the accepting statement wrote from the job's own row.
-- No entry: no row. Otherwise one row: the entry, and the claim's outcome, job
-- and layouts as claim_analysis_job gives them ('deferred' leaves the entry
-- active, for the worker to queue the job again and complete it, as before).
CREATE FUNCTION "take_analysis_entry"("queue" text, "max_running" integer, "lease_seconds" integer)
RETURNS TABLE ("entry_id" uuid, "entry_data" jsonb, "entry_priority" integer, "entry_retry_count" integer, "outcome" text, "job" "analysis_jobs", "layouts" json)
LANGUAGE plpgsql VOLATILE
AS $$
DECLARE
  "entry" record;
  "organization_scope" text := current_setting('app.organization_id', true);
  "system_scope" text := current_setting('app.system_scope', true);
BEGIN
  SELECT * INTO "entry" FROM fetch_analysis_entry("queue", "max_running");
  IF NOT FOUND THEN RETURN; END IF;
  PERFORM set_config('app.organization_id', "entry"."entry_data"->>'organizationId', true), set_config('app.system_scope', '', true);
  RETURN QUERY
    SELECT "entry"."entry_id", "entry"."entry_data", "entry"."entry_priority", "entry"."entry_retry_count", "claim"."outcome", "claim"."job", "claim"."layouts"
    FROM claim_analysis_job("entry"."entry_data"->>'organizationId', "entry"."entry_data"->>'jobId', "max_running", "lease_seconds") AS "claim";
  PERFORM set_config('app.organization_id', coalesce("organization_scope", ''), true), set_config('app.system_scope', coalesce("system_scope", ''), true);
END
$$;
