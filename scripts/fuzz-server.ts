import { spawn, type ChildProcess } from "node:child_process";
import { existsSync, openSync, readdirSync, readFileSync } from "node:fs";
import { mkdtemp } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { closeDb, openDb } from "@/db/client";
import { WebSocket } from "undici";
import { POOL_KEY } from "@/lib/readers/ingest-isolated";
import { DEFAULT_REST_AFTER_MS } from "@/lib/readers/pool";
import { CHILD_ENTRY } from "@/lib/readers/reader-process";
import { createApiKey, createUser, OPERATOR } from "@/lib/services";
import SERVER_NODE_FLAGS from "./server-node-flags.json" with { type: "json" };

/**
 * The server `npm run fuzz` attacks: the production build (`next start`) on
 * a fresh embedded database with one organization and key, and what its
 * process tree holds (the readers it starts, their OCR and renderer
 * processes) read from /proc.
 */
export interface FuzzServer {
  url: string;
  key: string;
  process: ChildProcess;
  /** Where the server's inspector listens once it is woken (SIGUSR1), loopback only: see withInspector. */
  inspectPort: number;
  stop(): Promise<void>;
}

const READY_TIMEOUT_MS = 120_000;
/** The server's inspector port is its HTTP port plus this. */
const INSPECT_PORT_OFFSET = 1000;
const nextBin = path.join(process.cwd(), "node_modules", "next", "dist", "bin", "next");

async function issueKey(dataDir: string): Promise<string> {
  const db = await openDb({ dataDir });
  try {
    const { organization } = await createUser(db, { actor: OPERATOR, email: "fuzz@example.test", password: "fuzz fuzz fuzz fuzz", orgSlug: "fuzz", role: "admin" });
    return (await createApiKey(db, { createdBy: OPERATOR, organizationId: organization.id, kind: "production" })).key;
  } finally {
    await closeDb(db);
  }
}

async function waitUntilReady(url: string, child: ChildProcess): Promise<void> {
  const deadline = Date.now() + READY_TIMEOUT_MS;
  while (Date.now() < deadline) {
    if (child.exitCode !== null) throw new Error(`the server exited with ${child.exitCode} while starting`);
    const ok = await fetch(`${url}/v1/openapi.json`).then((r) => r.ok, () => false);
    if (ok) return;
    await new Promise((resolve) => setTimeout(resolve, 500));
  }
  throw new Error(`the server did not answer within ${READY_TIMEOUT_MS / 1000} s`);
}

/** Starts `next start` on `port` with the build in NEXT_DIST_DIR (default .next); its output goes to `logFile`. */
export async function startFuzzServer(options: { port: number; logFile: string; readerTimeoutMs: number }): Promise<FuzzServer> {
  const distDir = process.env.NEXT_DIST_DIR ?? ".next";
  if (!existsSync(path.join(distDir, "BUILD_ID"))) throw new Error(`no production build in ${distDir}: run \`NEXT_DIST_DIR=${distDir} npx next build\` first`);
  const dataDir = await mkdtemp(path.join(tmpdir(), "shipshape-fuzz-"));
  const key = await issueKey(dataDir);
  const log = openSync(options.logFile, "w");
  const env: NodeJS.ProcessEnv = {
    ...process.env,
    NEXT_TELEMETRY_DISABLED: "1",
    NEXT_DIST_DIR: distDir,
    PGLITE_DIR: dataDir,
    // The fuzzer is one client sending thousands of requests: the rate limit is not what is under test.
    RATE_LIMIT_PRODUCTION: "1000000",
    // Both the processor-time budget and the wall-clock backstop: an answer later than the fuzzer's cap is a hang.
    ANALYSIS_TIMEOUT_MS: String(options.readerTimeoutMs),
    ANALYSIS_WALL_TIMEOUT_MS: String(options.readerTimeoutMs),
    // Production refuses to start without a public origin; plain http is allowed on loopback only.
    NEXTAUTH_URL: `http://127.0.0.1:${options.port}`,
  };
  // The fresh embedded database above, whatever the shell says.
  delete env.DATABASE_URL;
  // The flags `npm start` gives the server, and the port its inspector opens on SIGUSR1 (nothing listens until then).
  const inspectPort = options.port + INSPECT_PORT_OFFSET;
  const child = spawn(process.execPath, [...SERVER_NODE_FLAGS, `--inspect-port=127.0.0.1:${inspectPort}`, nextBin, "start", "--port", String(options.port)], {
    env,
    stdio: ["ignore", log, log],
    detached: true,
  });
  const url = `http://127.0.0.1:${options.port}`;
  const stop = async () => {
    if (child.exitCode !== null || child.pid === undefined) return;
    const exited = new Promise((resolve) => child.once("exit", resolve));
    process.kill(-child.pid, "SIGTERM");
    await Promise.race([exited, new Promise((resolve) => setTimeout(resolve, 10_000))]);
    if (child.exitCode === null) process.kill(-child.pid, "SIGKILL");
  };
  try {
    await waitUntilReady(url, child);
  } catch (error) {
    await stop();
    throw error;
  }
  return { url, key, process: child, inspectPort, stop };
}

export interface HeapUsage {
  rssBytes: number;
  /** The V8 heap's live objects after two full collections: grows round after round only if something is kept. */
  heapUsedBytes: number;
  /** Memory of C++ objects bound to JavaScript ones (buffers, PGlite's WebAssembly memory). */
  externalBytes: number;
}

type InspectorCall = (method: string, params?: object) => Promise<unknown>;

/** Runs `use` with a session on the server's inspector (woken by SIGUSR1 the first time, loopback only). */
async function withInspector<T>(server: FuzzServer, use: (call: InspectorCall) => Promise<T>): Promise<T> {
  const list = `http://127.0.0.1:${server.inspectPort}/json/list`;
  let targets = await fetch(list).then((r) => r.json() as Promise<{ webSocketDebuggerUrl: string }[]>, () => undefined);
  if (!targets) {
    process.kill(server.process.pid!, "SIGUSR1");
    for (let tries = 0; !targets && tries < 50; tries++) {
      await new Promise((resolve) => setTimeout(resolve, 200));
      targets = await fetch(list).then((r) => r.json() as Promise<{ webSocketDebuggerUrl: string }[]>, () => undefined);
    }
  }
  if (!targets?.[0]) throw new Error(`the server's inspector did not open on port ${server.inspectPort}`);
  const socket = new WebSocket(targets[0].webSocketDebuggerUrl);
  await new Promise((resolve, reject) => {
    socket.addEventListener("open", resolve, { once: true });
    socket.addEventListener("error", reject, { once: true });
  });
  let nextId = 0;
  const waiting = new Map<number, (result: unknown) => void>();
  socket.addEventListener("message", (event) => {
    const message = JSON.parse(String(event.data)) as { id?: number; result?: unknown };
    if (message.id !== undefined) waiting.get(message.id)?.(message.result);
  });
  const call: InspectorCall = (method, params = {}) =>
    new Promise<unknown>((resolve) => {
      const id = ++nextId;
      waiting.set(id, resolve);
      socket.send(JSON.stringify({ id, method, params }));
    });
  try {
    return await use(call);
  } finally {
    socket.close();
  }
}

/** The value of a JavaScript expression evaluated in the server. */
async function evaluate(call: InspectorCall, expression: string): Promise<unknown> {
  const evaluated = (await call("Runtime.evaluate", { expression, returnByValue: true })) as { result: { value: unknown } };
  return evaluated.result.value;
}

/**
 * The server's own view of its memory after a full garbage collection, read
 * through its inspector: resident memory that grows while the live heap stays
 * flat is the allocator keeping freed pages (a high-water mark), not objects
 * the server holds.
 */
export async function heapAfterGc(server: FuzzServer): Promise<HeapUsage> {
  return withInspector(server, async (call) => {
    await call("HeapProfiler.collectGarbage");
    await call("HeapProfiler.collectGarbage");
    const usage = JSON.parse((await evaluate(call, "JSON.stringify(process.memoryUsage())")) as string) as NodeJS.MemoryUsage;
    return { rssBytes: usage.rss, heapUsedBytes: usage.heapUsed, externalBytes: usage.external };
  });
}

/** How often, and at most how long, waitForRest asks the server's reader pool whether it is at rest. */
const REST_POLL_MS = 1_000;
const REST_WAIT_MS = DEFAULT_REST_AFTER_MS + 180_000;

/**
 * Waits until the server's reader pool says it is at rest (ProcessPool.atRest: its quiet spell over,
 * readers that kept memory replaced); the seconds it took, or undefined if it was not within
 * REST_WAIT_MS. Readers that grew below the growth cap are replaced only after the quiet spell, so
 * memory read before it would count what the pool is about to give back.
 */
export async function waitForRest(server: FuzzServer): Promise<number | undefined> {
  const started = Date.now();
  const expression = `globalThis[Symbol.for(${JSON.stringify(Symbol.keyFor(POOL_KEY))})]?.atRest`;
  return withInspector(server, async (call) => {
    while (Date.now() - started < REST_WAIT_MS) {
      const atRest = await evaluate(call, expression);
      if (atRest === undefined) throw new Error("the server's reader pool is not on its globalThis");
      if (atRest === true) return Math.round((Date.now() - started) / 1000);
      await new Promise((resolve) => setTimeout(resolve, REST_POLL_MS));
    }
    return undefined;
  });
}

export interface ProcessInfo {
  pid: number;
  command: string;
  rssBytes: number;
}

function readProcess(pid: number): (ProcessInfo & { ppid: number }) | undefined {
  try {
    const status = readFileSync(`/proc/${pid}/status`, "utf8");
    const ppid = Number(/^PPid:\s+(\d+)/m.exec(status)?.[1]);
    const rssKb = Number(/^VmRSS:\s+(\d+)/m.exec(status)?.[1] ?? 0);
    const command = readFileSync(`/proc/${pid}/cmdline`, "utf8").replace(/\0/g, " ").trim();
    return { pid, ppid, command, rssBytes: rssKb * 1024 };
  } catch {
    return undefined;
  }
}

/** The server process and every process below it. */
export function processTree(rootPid: number): ProcessInfo[] {
  const all = readdirSync("/proc").filter((name) => /^\d+$/.test(name)).map((name) => readProcess(Number(name))).filter((p) => p !== undefined);
  const tree = new Set([rootPid]);
  for (let grew = true; grew; ) {
    grew = false;
    for (const p of all) {
      if (tree.has(p.pid) || !tree.has(p.ppid)) continue;
      tree.add(p.pid);
      grew = true;
    }
  }
  return all.filter((p) => tree.has(p.pid)).map(({ pid, command, rssBytes }) => ({ pid, command, rssBytes }));
}

/** Readers are the isolation children (child.mjs); anything else below the server but the server itself is OCR or rendering. */
export function isReader(p: ProcessInfo): boolean {
  return p.command.includes(CHILD_ENTRY);
}
