import { randomBytes } from "node:crypto";
import pg from "pg";
import { closeDb, openDb, type Db, type OpenDbOptions } from "@/db/client";
import { forgetAnalysisWorker, stopAnalysisQueue } from "@/lib/jobs";
import { createUser, type CreatedUser, OPERATOR } from "@/lib/services";
import { freshPgliteDir, removePgliteDir } from "./pglite-template";
import { DEFAULT_TEST_DATABASE_URL } from "./test-postgres";

export interface TestDatabase {
  /** "pglite" or "postgresql"; reads well in `describe.each(testDatabases())("$name", …)`. */
  name: "pglite" | "postgresql";
  /** Opens a new, migrated, independent connection (a fresh PGlite, or a new pg Pool). */
  open(options?: Pick<OpenDbOptions, "onQuery">): Promise<Db>;
  close(db: Db): Promise<void>;
}

/**
 * The PostgreSQL database the tests share; suites isolate themselves by creating their own organization.
 * Under Vitest the global setup has set TEST_DATABASE_URL (test/support/global-setup.ts).
 */
export function testDatabaseUrl(): string {
  return process.env.TEST_DATABASE_URL ?? DEFAULT_TEST_DATABASE_URL;
}

/** The two real databases every database test runs on. */
export function testDatabases(): TestDatabase[] {
  return [
    {
      name: "pglite",
      open: async (options) => {
        const dir = freshPgliteDir();
        const db = await openDb({ ...options, dataDir: dir });
        pgliteDirs.set(db, dir);
        return db;
      },
      close: async (db) => {
        await closeTestDb(db);
        const dir = pgliteDirs.get(db);
        pgliteDirs.delete(db);
        if (dir) removePgliteDir(dir);
      },
    },
    {
      name: "postgresql",
      open: async (options) => {
        await ensureDatabaseExists(testDatabaseUrl());
        return openDb({ ...options, url: testDatabaseUrl() });
      },
      close: closeTestDb,
    },
  ];
}

/** The data directory of each PGlite database open() made, removed when it is closed. */
const pgliteDirs = new WeakMap<Db, string>();

/** Stops the analysis queue a suite's requests started on `db` (dropping the suite's queue), then closes it. */
async function closeTestDb(db: Db): Promise<void> {
  await stopAnalysisQueue(db, { graceful: false, destroy: true });
  forgetAnalysisWorker(db);
  await closeDb(db);
}

/** Creates the test database through the `postgres` maintenance database when it is missing. */
async function ensureDatabaseExists(url: string): Promise<void> {
  const target = new URL(url);
  const name = decodeURIComponent(target.pathname.slice(1));
  const admin = new URL(url);
  admin.pathname = "/postgres";
  const client = new pg.Client({ connectionString: admin.toString() });
  await client.connect();
  try {
    const found = await client.query("SELECT 1 FROM pg_database WHERE datname = $1", [name]);
    if (found.rowCount === 0) {
      await client.query(`CREATE DATABASE ${client.escapeIdentifier(name)}`).catch((error: { code?: string }) => {
        // Another test worker created it between the check and the create.
        if (error.code !== "42P04" && error.code !== "23505") throw error;
      });
    }
  } finally {
    await client.end();
  }
}

/** A name no other suite or run uses, so suites can share one PostgreSQL database. */
export function uniqueSlug(prefix = "test"): string {
  return `${prefix}-${randomBytes(6).toString("hex")}`;
}

export const TEST_PASSWORD = "correct horse battery staple";

/** A fresh organization with one user (admin unless told otherwise). */
export async function seedOrganization(
  db: Db,
  options: { role?: "admin" | "member"; prefix?: string } = {},
): Promise<CreatedUser> {
  const slug = uniqueSlug(options.prefix);
  return createUser(db, { actor: OPERATOR, email: `${slug}@example.test`, password: TEST_PASSWORD, orgSlug: slug, role: options.role ?? "admin" });
}

/** The name of the constraint a failed statement violated, through drizzle's error wrapper. */
export async function constraintOf(statement: PromiseLike<unknown>): Promise<string | undefined> {
  try {
    await statement;
  } catch (error) {
    for (let current: unknown = error; current instanceof Error; current = current.cause) {
      const constraint = (current as { constraint?: string }).constraint;
      if (constraint) return constraint;
    }
    throw error;
  }
  return undefined;
}
