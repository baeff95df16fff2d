/**
 * Endpoint benchmark: POST /v1/documents/analyze served by the real route
 * module in its own process (test/support/serve.ts), on embedded PGlite and on
 * PostgreSQL. A small digital PDF is sent by 1 and by 8 concurrent clients;
 * prints p50/p99 latency, requests per second and the server's peak RSS.
 * Run alone: `npx tsx bench/endpoint.ts` (PostgreSQL from TEST_DATABASE_URL).
 */
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { performance } from "node:perf_hooks";
import { pathToFileURL } from "node:url";
import { closeDb, openDb, type Db } from "@/db/client";
import { analyzeForm, createTestOrganization, invoicePages, makePdf } from "@/test/support/api-fixtures";
import { testDatabases, testDatabaseUrl } from "@/test/support/databases";
import { readRss, resetPeakRss, startServerProcess, type ServerProcess } from "@/test/support/server-process";

/** Requests per measured run, whatever the concurrency. */
export const REQUESTS_PER_RUN = 80;
export const CONCURRENCIES = [1, 8] as const;
/** Unmeasured requests first: the engine and the database load on first use. */
const WARMUP_REQUESTS = 3;
/** High enough that the benchmark never meets the limit. */
const BENCH_RATE_LIMIT = 1_000_000;
const MB = 2 ** 20;

export interface EndpointRun {
  database: "pglite" | "postgresql";
  concurrency: number;
  requests: number;
  /** Responses other than 200. */
  failures: number;
  p50Ms: number;
  p99Ms: number;
  requestsPerSecond: number;
  peakRssMb: number;
}

interface Target {
  database: EndpointRun["database"];
  key: string;
  server: ServerProcess;
  cleanup: () => Promise<void>;
}

function percentile(sorted: number[], q: number): number {
  return sorted[Math.max(0, Math.ceil(q * sorted.length) - 1)] ?? NaN;
}

async function issueKey(db: Db): Promise<string> {
  return (await createTestOrganization(db)).production.key;
}

async function startPglite(): Promise<Target> {
  const dataDir = await mkdtemp(path.join(tmpdir(), "shipshape-bench-"));
  const db = await openDb({ dataDir });
  const key = await issueKey(db);
  await closeDb(db);
  const server = await startServerProcess({ DATABASE_URL: undefined, PGLITE_DIR: dataDir, RATE_LIMIT_PRODUCTION: String(BENCH_RATE_LIMIT) });
  return { database: "pglite", key, server, cleanup: () => rm(dataDir, { recursive: true, force: true }) };
}

async function startPostgres(): Promise<Target> {
  const postgresql = testDatabases().find((database) => database.name === "postgresql");
  if (!postgresql) throw new Error("no PostgreSQL test database configured");
  const db = await postgresql.open();
  const key = await issueKey(db);
  await postgresql.close(db);
  const server = await startServerProcess({ DATABASE_URL: testDatabaseUrl(), RATE_LIMIT_PRODUCTION: String(BENCH_RATE_LIMIT) });
  return { database: "postgresql", key, server, cleanup: async () => undefined };
}

async function post(target: Target, pdf: Uint8Array): Promise<{ ok: boolean; ms: number }> {
  const started = performance.now();
  const response = await fetch(`${target.server.origin}/v1/documents/analyze`, {
    method: "POST",
    headers: { "x-api-key": target.key },
    body: analyzeForm({ file: { bytes: pdf, name: "invoice.pdf" } }),
  });
  await response.arrayBuffer();
  return { ok: response.status === 200, ms: performance.now() - started };
}

async function measure(target: Target, pdf: Uint8Array, concurrency: number, requests: number): Promise<EndpointRun> {
  await resetPeakRss(target.server.pid);
  const latencies: number[] = [];
  let failures = 0;
  let next = 0;
  const started = performance.now();
  const client = async () => {
    while (next < requests) {
      next += 1;
      const { ok, ms } = await post(target, pdf);
      latencies.push(ms);
      if (!ok) failures += 1;
    }
  };
  await Promise.all(Array.from({ length: concurrency }, client));
  const seconds = (performance.now() - started) / 1000;
  latencies.sort((a, b) => a - b);
  return {
    database: target.database,
    concurrency,
    requests,
    failures,
    p50Ms: percentile(latencies, 0.5),
    p99Ms: percentile(latencies, 0.99),
    requestsPerSecond: requests / seconds,
    peakRssMb: (await readRss(target.server.pid)).peak / MB,
  };
}

/** Runs every database × concurrency combination; a database that cannot start is reported and skipped. */
export async function benchEndpoint(requests = REQUESTS_PER_RUN): Promise<EndpointRun[]> {
  const pdf = await makePdf(invoicePages());
  const runs: EndpointRun[] = [];
  for (const start of [startPglite, startPostgres]) {
    let target: Target;
    try {
      target = await start();
    } catch (error) {
      console.error(`endpoint bench: skipped a database: ${error instanceof Error ? error.message : String(error)}`);
      continue;
    }
    try {
      for (let i = 0; i < WARMUP_REQUESTS; i++) await post(target, pdf);
      for (const concurrency of CONCURRENCIES) runs.push(await measure(target, pdf, concurrency, requests));
    } finally {
      await target.server.stop();
      await target.cleanup();
    }
  }
  return runs;
}

export function formatEndpointRuns(runs: EndpointRun[]): string {
  const header = "database    clients  requests  failures  p50 ms  p99 ms  req/s  peak RSS MB";
  const rows = runs.map((run) =>
    [
      run.database.padEnd(10),
      String(run.concurrency).padStart(7),
      String(run.requests).padStart(9),
      String(run.failures).padStart(9),
      run.p50Ms.toFixed(1).padStart(7),
      run.p99Ms.toFixed(1).padStart(7),
      run.requestsPerSecond.toFixed(1).padStart(6),
      run.peakRssMb.toFixed(0).padStart(12),
    ].join(" "),
  );
  return ["POST /v1/documents/analyze, 2-page digital PDF", header, ...rows].join("\n");
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? "").href) {
  console.log(formatEndpointRuns(await benchEndpoint()));
}
