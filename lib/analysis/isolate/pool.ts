import { fork, type ChildProcess } from "node:child_process";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { AnalysisError } from "../errors";

/**
 * A bounded pool of child processes that run parsing and OCR jobs, so that one
 * hostile or pathological file cannot stall or crash the server: each job has
 * a wall-clock deadline (then SIGKILL of the child's whole process group, OCR
 * and renderer included), a V8 heap cap, and a resident-memory cap polled from
 * /proc (worker-thread resourceLimits would not count ArrayBuffers, nodejs/node
 * PR #43992). Jobs wait in one FIFO queue; at most `size` run at once.
 */
export interface IsolatedJob {
  /** Absolute path of the module to import in the child (a .ts source file). */
  module: string;
  exportName: string;
  args: unknown[];
}

export interface PoolOptions {
  size?: number;
  /** V8 old-space cap of each child, MiB. */
  maxHeapMb?: number;
  /** Resident memory of each child above which it is killed, bytes (Linux only). */
  maxRssBytes?: number;
  /** Jobs a child serves before it is replaced, so slow leaks in parsers never accumulate. */
  maxJobsPerChild?: number;
  /** The project root: where the child entry, the job sources and tsconfig.json live. */
  root?: string;
}

/** One child per core on the 2-core machines this runs on; OCR is CPU-bound. */
export const DEFAULT_POOL_SIZE = 2;
export const DEFAULT_MAX_HEAP_MB = 1024;
export const DEFAULT_MAX_RSS_BYTES = 2 * 1024 * 1024 * 1024;
export const DEFAULT_JOB_TIMEOUT_MS = 180_000;
const DEFAULT_MAX_JOBS_PER_CHILD = 50;
const MEMORY_POLL_MS = 250;
const PAGE_SIZE_BYTES = 4096;

interface Waiting {
  job: IsolatedJob;
  timeoutMs: number;
  resolve: (value: unknown) => void;
  reject: (error: unknown) => void;
}

interface Slot {
  child: ChildProcess;
  ready: Promise<void>;
  jobs: number;
}

interface ChildReply {
  id?: number;
  ok?: boolean;
  ready?: boolean;
  value?: unknown;
  error?: { name: string; code?: AnalysisError["code"]; message: string; page?: number };
}

/** Resident set size of a process from /proc, or undefined where /proc is not available. */
function residentBytes(pid: number): number | undefined {
  try {
    const pages = Number(readFileSync(`/proc/${pid}/statm`, "utf8").split(" ")[1]);
    return Number.isFinite(pages) ? pages * PAGE_SIZE_BYTES : undefined;
  } catch {
    return undefined;
  }
}

/** Kills the child and everything it started (it leads its own process group). */
function killGroup(child: ChildProcess): void {
  if (child.pid === undefined || child.exitCode !== null || child.signalCode !== null) return;
  try {
    process.kill(-child.pid, "SIGKILL");
  } catch {
    child.kill("SIGKILL");
  }
}

export class ProcessPool {
  private readonly queue: Waiting[] = [];
  private readonly idle: Slot[] = [];
  private running = 0;
  private nextId = 1;
  private readonly size: number;
  private readonly root: string;

  constructor(private readonly options: PoolOptions = {}) {
    this.size = Math.max(1, options.size ?? DEFAULT_POOL_SIZE);
    this.root = options.root ?? process.cwd();
  }

  /** Runs a job in a child; queues (FIFO) while all children are busy. */
  run<T>(job: IsolatedJob, timeoutMs = DEFAULT_JOB_TIMEOUT_MS): Promise<T> {
    return new Promise<unknown>((resolve, reject) => {
      this.queue.push({ job, timeoutMs, resolve, reject });
      this.dispatch();
    }) as Promise<T>;
  }

  /** Jobs waiting for a free child. */
  get waiting(): number {
    return this.queue.length;
  }

  /** Kills every idle child; running jobs finish or hit their deadline. */
  close(): void {
    for (const slot of this.idle.splice(0)) killGroup(slot.child);
  }

  private dispatch(): void {
    while (this.running < this.size && this.queue.length > 0) {
      const next = this.queue.shift()!;
      this.running++;
      const slot = this.idle.pop() ?? this.spawn();
      this.execute(slot, next).finally(() => {
        this.running--;
        this.dispatch();
      });
    }
  }

  private spawn(): Slot {
    const child = fork(join(this.root, "lib/analysis/isolate/child.mjs"), [], {
      cwd: this.root,
      execArgv: [`--max-old-space-size=${this.options.maxHeapMb ?? DEFAULT_MAX_HEAP_MB}`],
      serialization: "advanced",
      detached: true,
      stdio: ["ignore", "inherit", "inherit", "ipc"],
    });
    const ready = new Promise<void>((resolve, reject) => {
      const onMessage = (message: ChildReply) => {
        if (!message.ready) return;
        child.off("message", onMessage);
        resolve();
      };
      child.on("message", onMessage);
      child.once("exit", () => reject(new AnalysisError("unreadable", "The document reader could not start.")));
    });
    ready.catch(() => undefined);
    const slot: Slot = { child, ready, jobs: 0 };
    // An idle child that dies (killed from outside, crashed) must not be handed the next job.
    child.once("exit", () => {
      const at = this.idle.indexOf(slot);
      if (at >= 0) this.idle.splice(at, 1);
    });
    child.on("error", () => killGroup(child));
    return slot;
  }

  /** Runs one job on a child; resolves once the job has settled (answered, failed or killed). */
  private execute(slot: Slot, waiting: Waiting): Promise<void> {
    const { child } = slot;
    const id = this.nextId++;
    return new Promise<void>((done) => {
      let settled = false;
      let killedFor: "timeout" | "memory" | undefined;
      const finish = (outcome: () => void, reusable: boolean) => {
        if (settled) return;
        settled = true;
        clearTimeout(deadline);
        clearInterval(memoryWatch);
        child.off("message", onMessage);
        child.off("exit", onExit);
        slot.jobs++;
        if (reusable && slot.jobs < (this.options.maxJobsPerChild ?? DEFAULT_MAX_JOBS_PER_CHILD)) this.idle.push(slot);
        else killGroup(child);
        outcome();
        done();
      };
      const onMessage = (message: ChildReply) => {
        if (message.id !== id) return;
        if (message.ok) return finish(() => waiting.resolve(message.value), true);
        const error = message.error;
        const rebuilt =
          error?.name === "AnalysisError" && error.code
            ? new AnalysisError(error.code, error.message, error.page)
            : new AnalysisError("unreadable", "The file could not be read.");
        finish(() => waiting.reject(rebuilt), true);
      };
      const onExit = () => {
        const error =
          killedFor === "timeout"
            ? new AnalysisError("timeout", `Reading the file took longer than ${Math.round(waiting.timeoutMs / 1000)} s; it was stopped.`)
            : killedFor === "memory"
              ? new AnalysisError("limit_exceeded", "Reading the file needed more memory than allowed; it was stopped.")
              : new AnalysisError("unreadable", "The file could not be read: the reader stopped unexpectedly.");
        finish(() => waiting.reject(error), false);
      };
      const deadline = setTimeout(() => {
        killedFor = "timeout";
        killGroup(child);
      }, waiting.timeoutMs);
      const maxRss = this.options.maxRssBytes ?? DEFAULT_MAX_RSS_BYTES;
      const memoryWatch = setInterval(() => {
        const rss = child.pid === undefined ? undefined : residentBytes(child.pid);
        if (rss !== undefined && rss > maxRss) {
          killedFor = "memory";
          killGroup(child);
        }
      }, MEMORY_POLL_MS);
      child.on("message", onMessage);
      child.once("exit", onExit);
      slot.ready.then(() => child.send({ id, ...waiting.job }), onExit);
    });
  }
}
