/** The server the endpoint benchmark talks to: test/support/serve.ts on a fresh PGlite directory or on PostgreSQL, with a key. */
import { randomBytes } from "node:crypto";
import { mkdtemp, rm } from "node:fs/promises";
import { availableParallelism, tmpdir } from "node:os";
import path from "node:path";
import { closeDb, openDb, type Db } from "@/db/client";
import { createTestOrganization } from "@/test/support/api-fixtures";
import { testDatabaseUrl } from "@/test/support/databases";
import { startServerProcess, type ServerProcess } from "@/test/support/server-process";
import pg from "pg";

export type Database = "pglite" | "postgresql";

export interface Target {
  database: Database;
  /** A production key of the first organization. */
  key: string;
  /** One production key per organization asked for (the first is `key`). */
  keys: string[];
  server: ServerProcess;
  stop: () => Promise<void>;
}

/** High enough that the benchmark never meets the limit. */
const BENCH_RATE_LIMIT = 1_000_000;
/** Every request of an 8-client run may be waiting at once without meeting the organization's cap. */
const BENCH_ORG_MAX_JOBS = 64;

async function issueKeys(db: Db, organizations: number): Promise<string[]> {
  const keys: string[] = [];
  for (let i = 0; i < organizations; i++) keys.push((await createTestOrganization(db)).production.key);
  return keys;
}

/** One organization sends every request: it may use every reader (a single-tenant deployment's setting). */
const serverEnv = {
  RATE_LIMIT_PRODUCTION: String(BENCH_RATE_LIMIT),
  ANALYSIS_ORG_MAX_JOBS: String(BENCH_ORG_MAX_JOBS),
  ANALYSIS_ORG_MAX_RUNNING: String(availableParallelism()),
};

/**
 * The server on `database`, with keys of `organizations` organizations; `env`
 * changes the benchmark's server settings (the queue benchmark keeps the
 * default running cap, so that organizations share the readers).
 */
export async function startTarget(database: Database, options: { organizations?: number; env?: Record<string, string | undefined> } = {}): Promise<Target> {
  const settings = { ...serverEnv, ...options.env };
  const organizations = options.organizations ?? 1;
  if (database === "pglite") {
    const dataDir = await mkdtemp(path.join(tmpdir(), "shipshape-bench-"));
    const db = await openDb({ dataDir });
    const keys = await issueKeys(db, organizations);
    await closeDb(db);
    const server = await startServerProcess({ ...settings, DATABASE_URL: undefined, PGLITE_DIR: dataDir });
    return { database, key: keys[0]!, keys, server, stop: () => server.stop().then(() => rm(dataDir, { recursive: true, force: true })) };
  }
  const fresh = await freshDatabase(testDatabaseUrl());
  const db = await openDb({ url: fresh.url });
  const keys = await issueKeys(db, organizations);
  await closeDb(db);
  const server = await startServerProcess({ ...settings, DATABASE_URL: fresh.url });
  return { database, key: keys[0]!, keys, server, stop: () => server.stop().then(fresh.drop) };
}

/**
 * A new database on the PostgreSQL server of `url`, dropped after the run. Every
 * benchmark request leaves dead rows behind (the job's stored bytes, its queue
 * entry's updates) that autovacuum removes in time; on a server where it is off
 * or behind, a database shared across runs makes each run's statements slower
 * than the last (the queue's fetch scanned 5,453 dead index entries after a few
 * thousand requests: 3.3 ms instead of 0.3). A fresh database measures the code.
 */
export async function freshDatabase(url: string): Promise<{ url: string; drop: () => Promise<void> }> {
  const name = `shipshape_bench_${randomBytes(6).toString("hex")}`;
  const admin = new URL(url);
  admin.pathname = "/postgres";
  const run = async (statement: string) => {
    const client = new pg.Client({ connectionString: admin.toString() });
    await client.connect();
    await client.query(statement).finally(() => client.end());
  };
  await run(`CREATE DATABASE ${name}`);
  const fresh = new URL(url);
  fresh.pathname = `/${name}`;
  return { url: fresh.toString(), drop: () => run(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`) };
}
