/**
 * What one synchronous analyze request costs the server process, counted in
 * this process so that load on the machine cannot blur it: SQL statements sent
 * (every one, pg-boss's and transactions' BEGIN/COMMIT included), grouped by
 * what they do, and the server's own CPU milliseconds (its readers excluded).
 * The real route module (POST /v1/documents/analyze) with its in-process
 * worker and readers, called one request at a time with the embedded-font
 * invoice of bench/endpoint.ts.
 *
 *   node --no-liftoff --conditions=react-server --import tsx bench/endpoint-statements.ts [--pglite | --postgresql] [--requests N] [--cpu-prof FILE]
 *
 * (`--no-liftoff` is the server's own V8 flag, scripts/server-node-flags.json: PGlite runs in this process.)
 *
 * PostgreSQL: a new database on TEST_DATABASE_URL's server, dropped at the end
 * (bench/endpoint-target.ts, freshDatabase). `--cpu-prof FILE` writes a V8 CPU profile
 * of the counted requests only (not the start, the migrations or the warm-up),
 * for Chrome's DevTools or any .cpuprofile reader.
 */
import { readFileSync, writeFileSync } from "node:fs";
import { Session } from "node:inspector/promises";
import pg from "pg";
import { testDatabaseUrl } from "@/test/support/databases";
import { freshDatabase } from "./endpoint-target";
import { analyzeForm, createTestOrganization } from "@/test/support/api-fixtures";
import { generateDocument } from "@/test/fixtures/generator/index";
import { formatTable } from "./report";

const WARM_UP_REQUESTS = 5;
const DEFAULT_REQUESTS = 30;

const database = process.argv.includes("--postgresql") ? "postgresql" : "pglite";
const at = process.argv.indexOf("--requests");
const requests = at >= 0 ? Number(process.argv[at + 1]) : DEFAULT_REQUESTS;
const profileAt = process.argv.indexOf("--cpu-prof");
const profileFile = profileAt >= 0 ? process.argv[profileAt + 1] : undefined;

const fresh = database === "postgresql" ? await freshDatabase(testDatabaseUrl()) : undefined;
Object.assign(process.env, {
  RATE_LIMIT_PRODUCTION: "1000000",
  ANALYSIS_ORG_MAX_JOBS: "64",
  ANALYSIS_ORG_MAX_RUNNING: "2",
  ...(database === "pglite" ? { PGLITE_DIR: "memory://" } : { DATABASE_URL: fresh!.url }),
});
if (database === "pglite") delete process.env.DATABASE_URL;

let counting = false;
const statements = new Map<string, number>();

/** A statement's kind: its verb and first table, enough to tell them apart without parameters. */
function kindOf(text: string): string {
  const flat = text.replace(/\s+/g, " ").trim();
  const verb = flat.split(" ", 1)[0]!.toUpperCase();
  const table = /\b(?:FROM|INTO|UPDATE|JOIN)\s+("?[\w.]+"?(?:\."?\w+"?)?)/i.exec(flat)?.[1]?.replace(/"/g, "") ?? "";
  // A statement that commits without waiting for the disk (db/queries/asynchronous-commit.ts) keeps its kind.
  const call = /\b(pg_advisory_xact_lock|set_config(?!\('synchronous_commit')|min\(priority\))/i.exec(flat)?.[1] ?? "";
  return [verb, table, call].filter(Boolean).join(" ");
}

/**
 * CPU milliseconds the database spent on each kind of statement: on PGlite,
 * this process's from a statement's call to its answer (one request at a time,
 * that is the statement's own work); on PostgreSQL, its backend's. Unlike wall
 * time, neither grows with the machine's load.
 */
const statementMs = new Map<string, number>();

function textOf(text: unknown): string {
  return typeof text === "string" ? text : ((text as { text?: string })?.text ?? "?");
}

function count(text: unknown): void {
  if (!counting) return;
  const kind = kindOf(textOf(text));
  statements.set(kind, (statements.get(kind) ?? 0) + 1);
}

/** Counts a PGlite statement and adds the time it took to its kind. */
function timed<T>(text: unknown, run: () => Promise<T>): Promise<T> {
  count(text);
  if (!counting) return run();
  const kind = kindOf(textOf(text));
  const started = process.cpuUsage();
  return run().finally(() => {
    const used = process.cpuUsage(started);
    statementMs.set(kind, (statementMs.get(kind) ?? 0) + (used.user + used.system) / 1000);
  });
}

/**
 * CPU nanoseconds a PostgreSQL backend has run so far (/proc's schedstat; the
 * server runs on this machine): read before and after each statement on its
 * connection, it is what that statement cost the database, by kind.
 */
function backendCpuNs(pid: number | undefined): number | undefined {
  if (!pid) return undefined;
  try {
    return Number(readFileSync(`/proc/${pid}/schedstat`, "utf8").split(" ", 1)[0]);
  } catch {
    return undefined;
  }
}

// Every statement on PostgreSQL goes through a pg Client (pooled, transaction or pg-boss alike).
const clientQuery = pg.Client.prototype.query;
pg.Client.prototype.query = function (this: pg.Client & { processID?: number }, ...args: unknown[]) {
  count(args[0]);
  const before = counting ? backendCpuNs(this.processID) : undefined;
  if (before === undefined) return (clientQuery as (...a: unknown[]) => unknown).apply(this, args);
  const kind = kindOf(textOf(args[0]));
  const charge = () => {
    const after = backendCpuNs(this.processID);
    if (after !== undefined) statementMs.set(kind, (statementMs.get(kind) ?? 0) + (after - before) / 1e6);
  };
  // The pool passes a callback; a transaction's client awaits the promise.
  const callback = args.at(-1);
  if (typeof callback === "function") {
    args[args.length - 1] = (...results: unknown[]) => {
      charge();
      return (callback as (...r: unknown[]) => unknown)(...results);
    };
    return (clientQuery as (...a: unknown[]) => unknown).apply(this, args);
  }
  return ((clientQuery as (...a: unknown[]) => Promise<unknown>).apply(this, args)).finally(charge);
} as typeof clientQuery;

/** Everything after the database is chosen: a run that fails still drops the database it made (below). */
async function measure(): Promise<void> {
  const { getDb, closeDb } = await import("@/db/client");
  const db = await getDb();

  interface PgliteLike {
    query(...args: unknown[]): Promise<unknown>;
    exec(...args: unknown[]): Promise<unknown>;
    transaction(callback: (tx: PgliteLike) => Promise<unknown>): Promise<unknown>;
  }

  // PGlite: its own query and exec, and a transaction's (BEGIN and COMMIT counted as the statements they are).
  function wrapPglite(client: PgliteLike): void {
    const query = client.query.bind(client);
    const exec = client.exec.bind(client);
    client.query = (...args) => timed(args[0], () => query(...args));
    client.exec = (...args) => timed(args[0], () => exec(...args));
    if (typeof client.transaction !== "function") return;
    const transaction = client.transaction.bind(client);
    client.transaction = (callback) =>
      transaction((tx) => {
        count("BEGIN");
        wrapPglite(tx);
        return callback(tx).finally(() => count("COMMIT"));
      });
  }
  if (database === "pglite") wrapPglite((db as unknown as { $client: PgliteLike }).$client);

  const { POST } = await import("@/app/v1/documents/analyze/route");
  const { startServerWorker, stopServerWorker } = await import("@/lib/jobs/server-worker");
  await startServerWorker();
  const { production } = await createTestOrganization(db);
  const pdf = (await generateDocument({ type: "commercial_invoice", seed: 1 })).pdf;

  async function post(): Promise<void> {
    const request = new Request("http://127.0.0.1/v1/documents/analyze", {
      method: "POST",
      headers: { "x-api-key": production.key },
      body: analyzeForm({ file: { bytes: pdf, name: "invoice.pdf" } }),
    });
    const response = await POST(request);
    await response.arrayBuffer();
    if (response.status !== 200) throw new Error(`analyze answered ${response.status}`);
  }

  for (let i = 0; i < WARM_UP_REQUESTS; i++) await post();
  const profiler = profileFile ? new Session() : undefined;
  if (profiler) {
    profiler.connect();
    await profiler.post("Profiler.enable");
    await profiler.post("Profiler.start");
  }
  counting = true;
  const cpu = process.cpuUsage();
  const started = performance.now();
  for (let i = 0; i < requests; i++) await post();
  const used = process.cpuUsage(cpu);
  const wallMs = performance.now() - started;
  counting = false;
  if (profiler && profileFile) {
    const { profile } = await profiler.post("Profiler.stop");
    writeFileSync(profileFile, JSON.stringify(profile));
    profiler.disconnect();
  }

  const total = [...statements.values()].reduce((a, b) => a + b, 0);
  const rows = [...statements.entries()]
    .sort((a, b) => b[1] - a[1])
    .map(([kind, n]) => [kind, (n / requests).toFixed(2), ((statementMs.get(kind) ?? 0) / requests).toFixed(2)]);
  console.log(`${database}: ${requests} one-page requests one after another`);
  const cpuColumn = database === "pglite" ? "PGlite CPU ms per request" : "backend CPU ms per request";
  console.log(formatTable(["statement", "per request", cpuColumn], rows));
  const inStatements = [...statementMs.values()].reduce((a, b) => a + b, 0);
  console.log(`CPU in ${database === "pglite" ? "PGlite" : "PostgreSQL backends"}: ${(inStatements / requests).toFixed(1)} ms per request`);
  console.log(`statements per request: ${(total / requests).toFixed(1)}`);
  console.log(`server CPU per request: ${((used.user + used.system) / 1000 / requests).toFixed(1)} ms (readers excluded); wall ${(wallMs / requests).toFixed(1)} ms`);
  const memory = process.memoryUsage();
  const mb = (bytes: number) => (bytes / 2 ** 20).toFixed(0);
  console.log(`server memory: resident ${mb(memory.rss)} MB, V8 heap ${mb(memory.heapUsed)} of ${mb(memory.heapTotal)} MB, array buffers and WebAssembly ${mb(memory.arrayBuffers)} MB, other external ${mb(memory.external - memory.arrayBuffers)} MB`);
  await stopServerWorker();
  await closeDb().catch(() => undefined);
}

try {
  await measure();
} finally {
  await fresh?.drop();
}
process.exit(0);
