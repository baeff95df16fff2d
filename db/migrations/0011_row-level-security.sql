-- Row-level security backstop (security checklist #36). The app may connect as
-- the non-owner role shipshape_app (DATABASE_APP_ROLE); the query layer then
-- sets app.organization_id per transaction (db/organization-scope.ts), and a
-- query that forgets its organization filter sees no other organization's rows.
-- With no organization set (sign-in, key look-up, the job queue's workers) the
-- policy lets rows through as before: those paths are cross-organization by design.
-- Superusers (PGlite's only user, and the test server's) bypass RLS whatever it says.
DO $$
BEGIN
  IF NOT EXISTS (SELECT FROM pg_roles WHERE rolname = 'shipshape_app') THEN
    CREATE ROLE shipshape_app NOLOGIN;
  END IF;
EXCEPTION WHEN duplicate_object OR unique_violation THEN
  NULL; -- another database of this server created it at the same moment
WHEN insufficient_privilege THEN
  RAISE NOTICE 'role shipshape_app not created: the migrating user may not create roles (create it, then re-grant)';
END $$;
--> statement-breakpoint
DO $$
BEGIN
  IF EXISTS (SELECT FROM pg_roles WHERE rolname = 'shipshape_app') THEN
    GRANT USAGE ON SCHEMA public TO shipshape_app;
    GRANT SELECT, INSERT, UPDATE, DELETE ON ALL TABLES IN SCHEMA public TO shipshape_app;
    GRANT USAGE, SELECT ON ALL SEQUENCES IN SCHEMA public TO shipshape_app;
    ALTER DEFAULT PRIVILEGES IN SCHEMA public GRANT SELECT, INSERT, UPDATE, DELETE ON TABLES TO shipshape_app;
    ALTER DEFAULT PRIVILEGES IN SCHEMA public GRANT USAGE, SELECT ON SEQUENCES TO shipshape_app;
    -- pg-boss creates its own schema at first start.
    EXECUTE format('GRANT CREATE ON DATABASE %I TO shipshape_app', current_database());
  END IF;
END $$;
--> statement-breakpoint
ALTER TABLE "memberships" ENABLE ROW LEVEL SECURITY;
--> statement-breakpoint
ALTER TABLE "memberships" FORCE ROW LEVEL SECURITY;
--> statement-breakpoint
CREATE POLICY "organization_scope" ON "memberships"
  USING (coalesce(current_setting('app.organization_id', true), '') = '' OR "organization_id" = current_setting('app.organization_id', true))
  WITH CHECK (coalesce(current_setting('app.organization_id', true), '') = '' OR "organization_id" = current_setting('app.organization_id', true));
--> statement-breakpoint
ALTER TABLE "api_keys" ENABLE ROW LEVEL SECURITY;
--> statement-breakpoint
ALTER TABLE "api_keys" FORCE ROW LEVEL SECURITY;
--> statement-breakpoint
CREATE POLICY "organization_scope" ON "api_keys"
  USING (coalesce(current_setting('app.organization_id', true), '') = '' OR "organization_id" = current_setting('app.organization_id', true))
  WITH CHECK (coalesce(current_setting('app.organization_id', true), '') = '' OR "organization_id" = current_setting('app.organization_id', true));
--> statement-breakpoint
ALTER TABLE "analyses" ENABLE ROW LEVEL SECURITY;
--> statement-breakpoint
ALTER TABLE "analyses" FORCE ROW LEVEL SECURITY;
--> statement-breakpoint
CREATE POLICY "organization_scope" ON "analyses"
  USING (coalesce(current_setting('app.organization_id', true), '') = '' OR "organization_id" = current_setting('app.organization_id', true))
  WITH CHECK (coalesce(current_setting('app.organization_id', true), '') = '' OR "organization_id" = current_setting('app.organization_id', true));
--> statement-breakpoint
ALTER TABLE "analysis_jobs" ENABLE ROW LEVEL SECURITY;
--> statement-breakpoint
ALTER TABLE "analysis_jobs" FORCE ROW LEVEL SECURITY;
--> statement-breakpoint
CREATE POLICY "organization_scope" ON "analysis_jobs"
  USING (coalesce(current_setting('app.organization_id', true), '') = '' OR "organization_id" = current_setting('app.organization_id', true))
  WITH CHECK (coalesce(current_setting('app.organization_id', true), '') = '' OR "organization_id" = current_setting('app.organization_id', true));
--> statement-breakpoint
ALTER TABLE "audit_events" ENABLE ROW LEVEL SECURITY;
--> statement-breakpoint
ALTER TABLE "audit_events" FORCE ROW LEVEL SECURITY;
--> statement-breakpoint
CREATE POLICY "organization_scope" ON "audit_events"
  USING (coalesce(current_setting('app.organization_id', true), '') = '' OR "organization_id" = current_setting('app.organization_id', true))
  WITH CHECK (coalesce(current_setting('app.organization_id', true), '') = '' OR "organization_id" = current_setting('app.organization_id', true));
--> statement-breakpoint
ALTER TABLE "document_sets" ENABLE ROW LEVEL SECURITY;
--> statement-breakpoint
ALTER TABLE "document_sets" FORCE ROW LEVEL SECURITY;
--> statement-breakpoint
CREATE POLICY "organization_scope" ON "document_sets"
  USING (coalesce(current_setting('app.organization_id', true), '') = '' OR "organization_id" = current_setting('app.organization_id', true))
  WITH CHECK (coalesce(current_setting('app.organization_id', true), '') = '' OR "organization_id" = current_setting('app.organization_id', true));
--> statement-breakpoint
ALTER TABLE "set_files" ENABLE ROW LEVEL SECURITY;
--> statement-breakpoint
ALTER TABLE "set_files" FORCE ROW LEVEL SECURITY;
--> statement-breakpoint
CREATE POLICY "organization_scope" ON "set_files"
  USING (coalesce(current_setting('app.organization_id', true), '') = '' OR "organization_id" = current_setting('app.organization_id', true))
  WITH CHECK (coalesce(current_setting('app.organization_id', true), '') = '' OR "organization_id" = current_setting('app.organization_id', true));
--> statement-breakpoint
ALTER TABLE "stored_files" ENABLE ROW LEVEL SECURITY;
--> statement-breakpoint
ALTER TABLE "stored_files" FORCE ROW LEVEL SECURITY;
--> statement-breakpoint
CREATE POLICY "organization_scope" ON "stored_files"
  USING (coalesce(current_setting('app.organization_id', true), '') = '' OR "organization_id" = current_setting('app.organization_id', true))
  WITH CHECK (coalesce(current_setting('app.organization_id', true), '') = '' OR "organization_id" = current_setting('app.organization_id', true));
--> statement-breakpoint
ALTER TABLE "split_corrections" ENABLE ROW LEVEL SECURITY;
--> statement-breakpoint
ALTER TABLE "split_corrections" FORCE ROW LEVEL SECURITY;
--> statement-breakpoint
CREATE POLICY "organization_scope" ON "split_corrections"
  USING (coalesce(current_setting('app.organization_id', true), '') = '' OR "organization_id" = current_setting('app.organization_id', true))
  WITH CHECK (coalesce(current_setting('app.organization_id', true), '') = '' OR "organization_id" = current_setting('app.organization_id', true));
--> statement-breakpoint
ALTER TABLE "field_corrections" ENABLE ROW LEVEL SECURITY;
--> statement-breakpoint
ALTER TABLE "field_corrections" FORCE ROW LEVEL SECURITY;
--> statement-breakpoint
CREATE POLICY "organization_scope" ON "field_corrections"
  USING (coalesce(current_setting('app.organization_id', true), '') = '' OR "organization_id" = current_setting('app.organization_id', true))
  WITH CHECK (coalesce(current_setting('app.organization_id', true), '') = '' OR "organization_id" = current_setting('app.organization_id', true));
--> statement-breakpoint
ALTER TABLE "document_reviews" ENABLE ROW LEVEL SECURITY;
--> statement-breakpoint
ALTER TABLE "document_reviews" FORCE ROW LEVEL SECURITY;
--> statement-breakpoint
CREATE POLICY "organization_scope" ON "document_reviews"
  USING (coalesce(current_setting('app.organization_id', true), '') = '' OR "organization_id" = current_setting('app.organization_id', true))
  WITH CHECK (coalesce(current_setting('app.organization_id', true), '') = '' OR "organization_id" = current_setting('app.organization_id', true));
--> statement-breakpoint
ALTER TABLE "finding_decisions" ENABLE ROW LEVEL SECURITY;
--> statement-breakpoint
ALTER TABLE "finding_decisions" FORCE ROW LEVEL SECURITY;
--> statement-breakpoint
CREATE POLICY "organization_scope" ON "finding_decisions"
  USING (coalesce(current_setting('app.organization_id', true), '') = '' OR "organization_id" = current_setting('app.organization_id', true))
  WITH CHECK (coalesce(current_setting('app.organization_id', true), '') = '' OR "organization_id" = current_setting('app.organization_id', true));
