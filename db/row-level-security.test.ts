import { sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createApiKey, type CreatedUser } from "@/lib/services";
import { seedOrganization, testDatabases, testDatabaseUrl } from "@/test/support/databases";
import { freshPgliteDir } from "@/test/support/pglite-template";
import { closeDb, openDb, type Db } from "./client";
import { queryRows } from "./queries/rows";
import { apiKeys, auditEvents, memberships } from "./schema";
import { withOrganizationScope, withSystemScope, withSystemScopeInTransaction } from "./scope";

/** The role the app takes with DATABASE_APP_ROLE: not the tables' owner, so row-level security binds it. */
const APP_ROLE = "shipshape_app";

describe.each(testDatabases())("row-level security on $name", (database) => {
  /** The owner's connection (a superuser: row-level security does not bind it). */
  let owner: Db;
  /** The app's connection, as DATABASE_APP_ROLE makes it. */
  let app: Db;
  let a: CreatedUser;
  let b: CreatedUser;

  beforeAll(async () => {
    owner = await database.open();
    app =
      database.name === "pglite"
        ? // One PGlite per handle: the app's handle seeds its own organizations.
          await openDb({ dataDir: freshPgliteDir(), appRole: APP_ROLE })
        : await openDb({ url: testDatabaseUrl(), appRole: APP_ROLE });
    // Seeding is the operator's work, across organizations.
    [a, b] = await withSystemScope("operator", async () => {
      const seeded = [await seedOrganization(app, { prefix: "rls-a" }), await seedOrganization(app, { prefix: "rls-b" })];
      for (const org of seeded) await createApiKey(app, { organizationId: org.organization.id, createdBy: org.user.id, kind: "sandbox", name: "rls" });
      return seeded as [CreatedUser, CreatedUser];
    });
  });
  afterAll(async () => {
    await closeDb(app);
    await database.close(owner);
  });

  const organizationsIn = (rows: { organizationId: string | null }[]) => new Set(rows.map((row) => row.organizationId));
  const unfiltered = (db: Db) =>
    Promise.all([
      db.select({ organizationId: apiKeys.organizationId }).from(apiKeys),
      db.select({ organizationId: memberships.organizationId }).from(memberships),
      db.select({ organizationId: auditEvents.organizationId }).from(auditEvents),
    ]);

  it("connects as the app's role", async () => {
    const [who] = await queryRows<{ role: string }>(app, sql`select current_user as role`);
    expect(who?.role).toBe(APP_ROLE);
  });

  it("outside any scope, a query sees no organization's rows and writes none", async () => {
    for (const rows of await unfiltered(app)) expect(rows).toEqual([]);
    await expect(app.insert(auditEvents).values({ organizationId: a.organization.id, actor: a.user.id, action: "test.unscoped_write", target: null, detail: {} })).rejects.toThrow();
    const updated = await app.update(apiKeys).set({ name: "renamed without a scope" }).returning({ id: apiKeys.id });
    expect(updated).toEqual([]);
  });

  it("a query that forgets its organization filter gets this organization's rows only", async () => {
    const seen = await withOrganizationScope(a.organization.id, () => unfiltered(app));
    for (const rows of seen) {
      expect(rows.length).toBeGreaterThan(0);
      expect(organizationsIn(rows)).toEqual(new Set([a.organization.id]));
    }
  });

  it("refuses writing a row into another organization from this one's scope", async () => {
    const write = withOrganizationScope(a.organization.id, () =>
      app.insert(auditEvents).values({ organizationId: b.organization.id, actor: a.user.id, action: "test.cross_write", target: null, detail: {} }),
    );
    await expect(write).rejects.toThrow();
    const updated = await withOrganizationScope(a.organization.id, () =>
      app.update(apiKeys).set({ name: "renamed across tenants" }).where(sql`${apiKeys.organizationId} = ${b.organization.id}`).returning({ id: apiKeys.id }),
    );
    expect(updated).toEqual([]);
  });

  it("the system scope sees every organization, and the connection names its reason", async () => {
    const [keys, reason] = await withSystemScope("operator", () =>
      Promise.all([app.select({ organizationId: apiKeys.organizationId }).from(apiKeys), queryRows<{ reason: string }>(app, sql`select current_setting('app.system_scope') as reason`)]),
    );
    expect([...organizationsIn(keys)]).toEqual(expect.arrayContaining([a.organization.id, b.organization.id]));
    expect(reason).toEqual([{ reason: "operator" }]);
  });

  it("never carries one scope into another: interleaved requests of two organizations each see their own, and after them none", async () => {
    const rounds = await Promise.all(
      Array.from({ length: 24 }, (_, i) => {
        const org = i % 2 === 0 ? a : b;
        return withOrganizationScope(org.organization.id, async () => {
          const inTransaction = await app.transaction((tx) => tx.select({ organizationId: memberships.organizationId }).from(memberships));
          const single = await app.select({ organizationId: memberships.organizationId }).from(memberships);
          return { expected: org.organization.id, seen: organizationsIn([...inTransaction, ...single]) };
        });
      }),
    );
    for (const round of rounds) expect(round.seen).toEqual(new Set([round.expected]));
    for (const rows of await unfiltered(app)) expect(rows).toEqual([]);
  });

  it("inside an organization's transaction, a server-wide count runs in the system scope, then the organization's scope is back", async () => {
    const counts = await withOrganizationScope(a.organization.id, () =>
      app.transaction(async (tx) => {
        const count = async () => (await tx.select({ organizationId: apiKeys.organizationId }).from(apiKeys)).length;
        const before = await count();
        const everywhere = await withSystemScopeInTransaction(tx, "job admission", count);
        return { before, everywhere, after: await count() };
      }),
    );
    expect(counts.everywhere).toBeGreaterThan(counts.before);
    expect(counts.after).toBe(counts.before);
    await expect(withSystemScopeInTransaction(app, "job admission", async () => 0)).rejects.toThrow(/needs a transaction/);
  });

  it("forces row-level security, under the strict organization policy, on every table that has an organization_id", async () => {
    const tables = await queryRows<{ table: string; forced: boolean; policies: string[] }>(
      owner,
      sql`select c.relname as "table", c.relrowsecurity and c.relforcerowsecurity as forced,
                 array(select p.qual || ' / ' || p.with_check from pg_policies p
                       where p.schemaname = 'public' and p.tablename = c.relname and p.policyname = 'organization_scope') as policies
          from pg_class c join pg_namespace n on n.oid = c.relnamespace
          where n.nspname = 'public' and c.relkind = 'r'
            and exists (select 1 from information_schema.columns col where col.table_schema = 'public' and col.table_name = c.relname and col.column_name = 'organization_id')
          order by 1`,
    );
    expect(tables.length).toBeGreaterThanOrEqual(15);
    // Strict: the organization's own rows, or the system scope; never "every row while no organization is set".
    const strict = (policy: string) => policy.includes("app.system_scope") && !policy.includes("= ''::text) OR");
    expect(tables.filter((t) => !t.forced || t.policies.length !== 1 || !t.policies.every(strict))).toEqual([]);
  });
});
