-- The PL/pgSQL functions of an analyze request plan their statements once per connection, not on
-- every call (issue 16). PL/pgSQL prepares each statement of a function and, under the default
-- plan_cache_mode, plans it again for every call's parameter values unless the generic plan is
-- estimated no dearer; for these it never is, so every call planned again. Planning the fetch's
-- UPDATE of pgboss.job (partitioned by queue, several indexes) cost more than running it: with an
-- empty queue 0.22 ms a call against 0.04 ms with a generic plan (pgbench, one client), and while
-- 4,000 waiting entries drained to 800, 5.2 and 3.2 ms against 2.9 and 1.5 ms (interleaved runs).
-- The generic plans filter by equality on indexed columns, and the queue's partition is chosen at
-- execution (run-time pruning). admission_counts is left as it is: a SQL-language function, which
-- PostgreSQL before 18 plans at each call whatever plan_cache_mode says (the rate limit's statement
-- that calls it cost the same, 0.38-0.39 ms, with every plan generic).
ALTER FUNCTION "fetch_analysis_entry"(text, integer) SET "plan_cache_mode" = 'force_generic_plan';
--> statement-breakpoint
ALTER FUNCTION "claim_analysis_job"(text, text, integer, integer) SET "plan_cache_mode" = 'force_generic_plan';
--> statement-breakpoint
ALTER FUNCTION "admit_analysis_jobs"(text, text, integer, boolean, integer, integer) SET "plan_cache_mode" = 'force_generic_plan';
