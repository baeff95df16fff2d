import { spawn, type ChildProcess } from "node:child_process";
import { join } from "node:path";
import type { AnalysisError } from "../analysis";
import { killGroup, processUsage } from "./process-control";
import { readerEnvironment } from "./reader-environment";

/** The child entry, relative to the project root. */
export const CHILD_ENTRY = "lib/readers/child.mjs";
/**
 * The young generation's cap, as the server's (scripts/server-node-flags.json): Node 22+ lets it grow
 * to 128 MB on a machine with much memory (Node 20: 32 MB). On Node 24 a reader's resident memory then
 * rose about 50 MB above its ready size within 400-550 one-page jobs, past the pool's growth margin
 * (pool.ts), so each reader was replaced every few hundred jobs, paying a start and a cold phase:
 * readers' CPU 7.1-8.7 ms a request at 2 clients against 4.3-5.4 ms with the cap, under which they
 * stayed below that margin over 3,200 jobs each (no replacement).
 */
const READER_NODE_FLAGS = ["--max-semi-space-size=16"];
/** A child that has not loaded its modules by then is broken (not the job's fault): the job fails as an internal error. */
const CHILD_START_TIMEOUT_MS = 120_000;

/** One reader process of the pool. */
export interface Slot {
  child: ChildProcess;
  /** Resolves once the child has loaded its modules; rejects if it exits first. */
  ready: Promise<void>;
  /** Set once the child has loaded its modules and said so. */
  started: boolean;
  jobs: number;
  /** Its replacement has loaded: it takes no new job and is killed once its running job ends. */
  retiring: boolean;
  /** Served its share of jobs, or grew: replaced as soon as a replacement has loaded. */
  worn: boolean;
  /** Its resident memory once it had loaded its modules, before any job, or the least it held at rest since (undefined where /proc is not available). */
  baselineBytes?: number;
}

export interface ChildReply {
  id?: number;
  ok?: boolean;
  ready?: boolean;
  value?: unknown;
  /** A progress report of the running job (the job goes on). */
  progress?: unknown;
  error?: { name: string; code?: AnalysisError["code"]; message: string; page?: number };
}

/**
 * Starts a reader: a Node process with a capped V8 heap, in its own process
 * group (so its OCR and renderer processes die with it), with the reader
 * environment only, which imports `preload` before it says it is ready.
 */
export function spawnReader(root: string, maxHeapMb: number, preload: string[]): Slot {
  // spawn with an "ipc" channel rather than fork: Turbopack (Next 16) resolves fork()'s first
  // argument as a module request and fails `next build` with "Module not found: Can't resolve
  // <dynamic>" on a path built at run time (vercel/next.js#97952); spawn's arguments are plain strings to it.
  const child = spawn(process.execPath, [`--max-old-space-size=${maxHeapMb}`, ...READER_NODE_FLAGS, join(root, CHILD_ENTRY), ...preload], {
    cwd: root,
    // No secret and nothing of the server's environment: see reader-environment.ts.
    env: readerEnvironment(),
    serialization: "advanced",
    detached: true,
    stdio: ["ignore", "inherit", "inherit", "ipc"],
  });
  const slot: Slot = { child, ready: Promise.resolve(), started: false, jobs: 0, retiring: false, worn: false };
  slot.ready = new Promise<void>((resolve, reject) => {
    const startup = setTimeout(() => killGroup(child), CHILD_START_TIMEOUT_MS);
    const onMessage = (message: ChildReply) => {
      if (!message.ready) return;
      child.off("message", onMessage);
      clearTimeout(startup);
      slot.started = true;
      if (child.pid !== undefined) slot.baselineBytes = processUsage(child.pid)?.residentBytes;
      resolve();
    };
    child.on("message", onMessage);
    child.once("exit", (code, signal) => {
      clearTimeout(startup);
      reject(new Error(`the isolation child exited before it was ready (${signal ?? `code ${code}`})`));
    });
  });
  slot.ready.catch(() => undefined);
  child.on("error", () => killGroup(child));
  return slot;
}
