import { randomBytes } from "node:crypto";
import { readFileSync } from "node:fs";
import path from "node:path";
import { sql } from "drizzle-orm";
import pg from "pg";
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from "vitest";
import { resetEnvForTests } from "@/lib/env";
import { constraintOf, seedOrganization, testDatabases, testDatabaseUrl } from "@/test/support/databases";
import { closeDb, getDb, openDb, type Db } from "./client";
import { newId } from "./ids";
import { queryRows } from "./queries/rows";
import { apiKeys, users } from "./schema";
import { SET_SCOPE_STATEMENT, withOrganizationScope, withScopeKept } from "./scope";

const journal = JSON.parse(readFileSync(path.join(process.cwd(), "db/migrations/meta/_journal.json"), "utf8")) as {
  entries: unknown[];
};

describe.each(testDatabases())("database on $name", (database) => {
  let db: Db;
  beforeAll(async () => {
    db = await database.open();
  });
  afterAll(() => database.close(db));

  it("has every committed migration applied, once", async () => {
    const [row] = await queryRows<{ count: number }>(db, sql`SELECT count(*)::int AS count FROM drizzle.__drizzle_migrations`);
    expect(row?.count).toBe(journal.entries.length);
  });

  it("keeps rate-limit state in an unlogged table", async () => {
    const [row] = await queryRows<{ persistence: string }>(
      db,
      sql`SELECT relpersistence AS persistence FROM pg_class WHERE relname = 'rate_limits' AND relkind = 'r'`,
    );
    expect(row?.persistence).toBe("u");
  });

  it("enforces the 28-day sandbox expiry and lower-case emails in the schema itself", async () => {
    const { organization } = await seedOrganization(db, { prefix: "schema" });
    const createdAt = new Date("2030-05-01T00:00:00.000Z");
    const sandbox = () => ({
      id: newId("key"),
      organizationId: organization.id,
      kind: "sandbox" as const,
      start: "ss_test_abcd",
      digest: randomBytes(32).toString("hex"),
      createdAt,
    });
    const wrongExpiry = db.insert(apiKeys).values({ ...sandbox(), expiresAt: new Date("2030-06-01T00:00:00.000Z") });
    expect(await constraintOf(wrongExpiry)).toBe("api_keys_expiry_by_kind");
    expect(await constraintOf(db.insert(apiKeys).values({ ...sandbox(), expiresAt: null }))).toBe("api_keys_expiry_by_kind");
    await db.insert(apiKeys).values({ ...sandbox(), expiresAt: new Date("2030-05-29T00:00:00.000Z") });

    const upper = db.insert(users).values({ id: newId("usr"), email: `Upper-${newId("usr")}@example.test`, passwordHash: "x" });
    expect(await constraintOf(upper)).toBe("users_email_lowercase");
  });
});

describe("openDb on postgresql", () => {
  it("lets several processes start at once: migrations are serialised by an advisory lock", async () => {
    const dbs = await Promise.all([1, 2, 3].map(() => openDb({ url: testDatabaseUrl() })));
    for (const db of dbs) {
      const [row] = await queryRows<{ one: number }>(db, sql`SELECT 1 AS one`);
      expect(row?.one).toBe(1);
    }
    await Promise.all(dbs.map((db) => closeDb(db)));
  });

  it("survives the server dropping an idle connection", async () => {
    const db = await openDb({ url: testDatabaseUrl() });
    const logged = vi.spyOn(console, "error").mockImplementation(() => undefined);
    try {
      const [{ pid } = { pid: 0 }] = await queryRows<{ pid: number }>(db, sql`SELECT pg_backend_pid() AS pid`);
      const admin = new pg.Client({ connectionString: testDatabaseUrl() });
      await admin.connect();
      await admin.query("SELECT pg_terminate_backend($1)", [pid]);
      await admin.end();
      await vi.waitFor(() => expect(logged).toHaveBeenCalledWith(expect.stringMatching(/database connection lost/)));
      const [row] = await queryRows<{ one: number }>(db, sql`SELECT 1 AS one`);
      expect(row?.one).toBe(1);
    } finally {
      logged.mockRestore();
      await closeDb(db);
    }
  });

  it("sets a pooled connection's scope only when it was taken in another scope", async () => {
    const db = await openDb({ url: testDatabaseUrl() });
    const query = pg.Client.prototype.query;
    let scopeStatements = 0;
    pg.Client.prototype.query = function (this: pg.Client, ...args: unknown[]) {
      // A parameterised statement arrives named (db/statement-cache.ts): its text is in its config.
      const text = typeof args[0] === "string" ? args[0] : (args[0] as { text?: string }).text;
      if (text === SET_SCOPE_STATEMENT) scopeStatements++;
      return (query as (...a: unknown[]) => unknown).apply(this, args);
    } as typeof query;
    const seenOrganization = async () => (await queryRows<{ id: string }>(db, sql`SELECT current_setting('app.organization_id', true) AS id`))[0]?.id;
    try {
      // One query at a time: the pool hands out its one idle connection each time.
      const inA = await withOrganizationScope("org_a", async () => [await seenOrganization(), await seenOrganization(), await seenOrganization()]);
      expect({ inA, scopeStatements }).toEqual({ inA: ["org_a", "org_a", "org_a"], scopeStatements: 1 });
      expect(await withOrganizationScope("org_b", seenOrganization)).toBe("org_b");
      expect(await seenOrganization()).toBe("");
      expect(await withOrganizationScope("org_a", seenOrganization)).toBe("org_a");
      expect(scopeStatements).toBe(4);
      // A statement on tables no organization owns takes the connection in the scope it has.
      expect(await withScopeKept("job queue", seenOrganization)).toBe("org_a");
      expect(await withOrganizationScope("org_a", seenOrganization)).toBe("org_a");
      expect(scopeStatements).toBe(4);
    } finally {
      pg.Client.prototype.query = query;
      await closeDb(db);
    }
  });

  it("prepares a parameterised statement once per connection and runs it by name after; one without parameters is not prepared", async () => {
    const db = await openDb({ url: testDatabaseUrl() });
    try {
      // One transaction: one connection, whose prepared statements pg_prepared_statements lists.
      const prepared = await db.transaction(async (tx) => {
        const marker = `prepared ${randomBytes(6).toString("hex")}`;
        for (const n of [1, 2, 3]) await queryRows(tx, sql`SELECT ${n}::int AS n, ${marker}::text AS marker`);
        await queryRows(tx, sql.raw(`SELECT '${marker}' AS unparameterised`));
        return queryRows<{ name: string; statement: string; executions: number }>(
          tx,
          sql`SELECT name, statement, (generic_plans + custom_plans)::int AS executions FROM pg_prepared_statements WHERE statement LIKE '%marker%' OR statement LIKE '%unparameterised%'`,
        );
      });
      expect(prepared).toHaveLength(1);
      expect(prepared[0]).toMatchObject({ name: expect.stringMatching(/^s[\w-]{32}$/), statement: expect.stringContaining("AS marker"), executions: 3 });
    } finally {
      await closeDb(db);
    }
  });

  it("prepares nothing when told not to (DATABASE_PREPARED_STATEMENTS=false: a pooler in transaction mode)", async () => {
    const db = await openDb({ url: testDatabaseUrl(), preparedStatements: false });
    try {
      const prepared = await db.transaction(async (tx) => {
        const marker = `unprepared ${randomBytes(6).toString("hex")}`;
        for (const n of [1, 2]) await queryRows(tx, sql`SELECT ${n}::int AS n, ${marker}::text AS marker`);
        return queryRows(tx, sql`SELECT name FROM pg_prepared_statements WHERE statement LIKE '%marker%'`);
      });
      expect(prepared).toEqual([]);
    } finally {
      await closeDb(db);
    }
  });

  it("refuses a URL that is not PostgreSQL with a clear message", async () => {
    await expect(openDb({ url: "mysql://localhost/db" })).rejects.toThrow(/postgres:\/\//);
  });
});

describe("getDb", () => {
  const saved = { url: process.env.DATABASE_URL, dir: process.env.PGLITE_DIR };
  afterEach(async () => {
    await closeDb();
    for (const [name, value] of [["DATABASE_URL", saved.url], ["PGLITE_DIR", saved.dir]] as const) {
      if (value === undefined) delete process.env[name];
      else process.env[name] = value;
    }
    resetEnvForTests();
  });

  it("opens PGlite when DATABASE_URL is unset, once per process, and reopens after closeDb", async () => {
    delete process.env.DATABASE_URL;
    process.env.PGLITE_DIR = "memory://";
    resetEnvForTests();
    const first = getDb();
    expect(getDb()).toBe(first);
    const db = await first;
    const [row] = await queryRows<{ version: string }>(db, sql`SELECT version() AS version`);
    expect(row?.version).toMatch(/PostgreSQL/);
    await closeDb();
    expect(getDb()).not.toBe(first);
  });

  it("uses PostgreSQL when DATABASE_URL is set", async () => {
    process.env.DATABASE_URL = testDatabaseUrl();
    resetEnvForTests();
    const db = await getDb();
    const [row] = await queryRows<{ name: string }>(db, sql`SELECT current_database() AS name`);
    expect(row?.name).toBe(new URL(testDatabaseUrl()).pathname.slice(1));
  });
});
