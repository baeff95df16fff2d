/** The server the endpoint benchmark talks to: test/support/serve.ts on a fresh PGlite directory or on PostgreSQL, with a key. */
import { mkdtemp, rm } from "node:fs/promises";
import { availableParallelism, tmpdir } from "node:os";
import path from "node:path";
import { closeDb, openDb, type Db } from "@/db/client";
import { createTestOrganization } from "@/test/support/api-fixtures";
import { testDatabases, testDatabaseUrl } from "@/test/support/databases";
import { startServerProcess, type ServerProcess } from "@/test/support/server-process";

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
  const postgresql = testDatabases().find((candidate) => candidate.name === "postgresql")!;
  const db = await postgresql.open();
  const keys = await issueKeys(db, organizations);
  await postgresql.close(db);
  const server = await startServerProcess({ ...settings, DATABASE_URL: testDatabaseUrl() });
  return { database, key: keys[0]!, keys, server, stop: () => server.stop() };
}
