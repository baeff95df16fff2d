import { sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createApiKey, type CreatedUser } from "@/lib/services";
import { seedOrganization, testDatabases, testDatabaseUrl } from "@/test/support/databases";
import { closeDb, openDb, type Db } from "./client";
import { withOrganizationScope } from "./organization-scope";
import { queryRows } from "./queries/rows";
import { apiKeys, auditEvents, memberships } from "./schema";

/** The role the app takes with DATABASE_APP_ROLE: not the tables' owner, so row-level security binds it. */
const APP_ROLE = "shipshape_app";

describe.each(testDatabases())("row-level security on $name", (database) => {
  let db: Db;
  let a: CreatedUser;
  let b: CreatedUser;

  beforeAll(async () => {
    db = await database.open();
    a = await seedOrganization(db, { prefix: "rls-a" });
    b = await seedOrganization(db, { prefix: "rls-b" });
    for (const org of [a, b]) await createApiKey(db, { organizationId: org.organization.id, createdBy: org.user.id, kind: "sandbox", name: "rls" });
  });
  afterAll(() => database.close(db));

  /** As the app's role, in `organizationId`'s scope: the role is taken for this transaction only. */
  const asApp = <T>(organizationId: string, work: (tx: Db) => Promise<T>) =>
    withOrganizationScope(db, organizationId, async (tx) => {
      await tx.execute(sql.raw(`set local role ${APP_ROLE}`));
      return work(tx);
    });

  it("a query that forgets its organization filter gets no other organization's rows", async () => {
    const seen = await asApp(a.organization.id, async (tx) => ({
      keys: await tx.select({ organizationId: apiKeys.organizationId }).from(apiKeys),
      members: await tx.select({ organizationId: memberships.organizationId }).from(memberships),
      audit: await tx.select({ organizationId: auditEvents.organizationId }).from(auditEvents),
    }));
    for (const rows of Object.values(seen)) {
      expect(rows.length).toBeGreaterThan(0);
      expect(new Set(rows.map((row) => row.organizationId))).toEqual(new Set([a.organization.id]));
    }
  });

  it("refuses writing a row into another organization from this one's scope", async () => {
    const write = asApp(a.organization.id, (tx) =>
      tx.insert(auditEvents).values({ organizationId: b.organization.id, actor: a.user.id, action: "test.cross_write", target: null, detail: {} }),
    );
    await expect(write).rejects.toThrow();
    const updated = await asApp(a.organization.id, (tx) =>
      tx.update(apiKeys).set({ name: "renamed across tenants" }).where(sql`${apiKeys.organizationId} = ${b.organization.id}`).returning({ id: apiKeys.id }),
    );
    expect(updated).toEqual([]);
  });

  it("is set per transaction: the next transaction on the same connection carries no organization", async () => {
    await withOrganizationScope(db, a.organization.id, async () => undefined);
    const [row] = await queryRows<{ org: string | null }>(db, sql`select current_setting('app.organization_id', true) as org`);
    expect(row?.org ?? "").toBe("");
  });

  it("forces row-level security, under the organization policy, on every table that has an organization_id", async () => {
    const tables = await queryRows<{ table: string; forced: boolean; policies: number }>(
      db,
      sql`select c.relname as "table", c.relrowsecurity and c.relforcerowsecurity as forced,
                 (select count(*)::int from pg_policies p where p.schemaname = 'public' and p.tablename = c.relname and p.policyname = 'organization_scope') as policies
          from pg_class c join pg_namespace n on n.oid = c.relnamespace
          where n.nspname = 'public' and c.relkind = 'r'
            and exists (select 1 from information_schema.columns col where col.table_schema = 'public' and col.table_name = c.relname and col.column_name = 'organization_id')
          order by 1`,
    );
    expect(tables.length).toBeGreaterThanOrEqual(12);
    expect(tables.filter((t) => !t.forced || t.policies !== 1)).toEqual([]);
  });

  it("with DATABASE_APP_ROLE every connection is the app's role: services work, and a scoped query sees one organization", async () => {
    const appDb = await openDb({ ...(database.name === "pglite" ? { dataDir: "memory://" } : { url: testDatabaseUrl() }), appRole: APP_ROLE });
    try {
      const [who] = await queryRows<{ role: string }>(appDb, sql`select current_user as role`);
      expect(who?.role).toBe(APP_ROLE);
      const mine = await seedOrganization(appDb, { prefix: "rls-app" });
      const theirs = await seedOrganization(appDb, { prefix: "rls-app-other" });
      const rows = await withOrganizationScope(appDb, mine.organization.id, (tx) => tx.select({ organizationId: memberships.organizationId }).from(memberships));
      expect(rows).toEqual([{ organizationId: mine.organization.id }]);
      expect(theirs.organization.id).not.toBe(mine.organization.id);
    } finally {
      await closeDb(appDb);
    }
  });
});
