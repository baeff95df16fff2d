-- Row-level security becomes a strict backstop (security checklist #36). A
-- connection sees an organization's rows only in that organization's scope
-- (app.organization_id), or every organization's in the system scope
-- (app.system_scope, which names why: sign-in, api-key lookup, job admission,
-- admin reset, first run, operator, migrations; see db/scope.ts). With
-- neither set, a query sees no organization-owned row and may write none: a
-- code path that forgot to enter a scope fails closed. The app's pool sets
-- both on every connection it hands out (db/client.ts). Every table's
-- "organization_scope" policy is replaced, whichever migration made it; a new
-- table's policy is written in this form (db/row-level-security.test.ts checks).
DO $$
DECLARE item record;
BEGIN
  FOR item IN SELECT tablename FROM pg_policies WHERE schemaname = 'public' AND policyname = 'organization_scope' LOOP
    EXECUTE format('DROP POLICY "organization_scope" ON %I', item.tablename);
    EXECUTE format($policy$CREATE POLICY "organization_scope" ON %I
      USING ("organization_id" = current_setting('app.organization_id', true) OR coalesce(current_setting('app.system_scope', true), '') <> '')
      WITH CHECK ("organization_id" = current_setting('app.organization_id', true) OR coalesce(current_setting('app.system_scope', true), '') <> '')$policy$, item.tablename);
  END LOOP;
END $$;
