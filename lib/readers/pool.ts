import { WALL_PER_CPU_BUDGET } from "@/lib/env";
import { AnalysisError } from "../analysis";
import { FairQueue } from "./fair-queue";
import { groupUsage, killGroup, processUsage } from "./process-control";
import { QueueFullError } from "./queue-full-error";
import { jobTempDirPath, removeJobTempDir, sweepOrphanedTempDirs } from "./reader-environment";
import { spawnReader, type ChildReply, type Slot } from "./reader-process";

export { QueueFullError };

/**
 * A bounded pool of child processes that run parsing and OCR jobs, so that one
 * hostile or pathological file cannot stall or crash the server: each job has
 * a budget of processor time, spent by the child's whole process group (OCR and
 * renderer included; then SIGKILL of the group), a much longer wall-clock
 * backstop for a job that makes no progress, a V8 heap cap, and a
 * resident-memory cap, both polled from /proc (worker-thread resourceLimits
 * would not count ArrayBuffers, nodejs/node PR #43992). Processor time rather
 * than wall time: on a busy machine a document takes many times its processor
 * time to read, and load alone must never fail a document that would be read.
 * At most `size` jobs run at once; the others wait, first in first
 * out per tenant and round-robin between tenants, in a queue whose length can
 * be bounded (a job beyond the bound is refused at once with QueueFullError
 * instead of waiting behind an ever longer line).
 */
export interface IsolatedJob<Result = unknown> {
  /** Absolute path of the module to import in the child (a .ts source file); jobOf builds it from a typed JobModule. */
  module: string;
  exportName: string;
  args: unknown[];
  /** Never set: the type of what the job returns, for run. */
  result?: Result;
}

export interface PoolOptions {
  size?: number;
  /** V8 old-space cap of each child, MiB. */
  maxHeapMb?: number;
  /** Resident memory of each child, with the processes it started, above which it is killed, bytes (Linux only). */
  maxRssBytes?: number;
  /**
   * Jobs a child serves before it is replaced, a backstop against slow leaks in parsers. Large by
   * default: a child that kept memory is replaced by maxGrowthBytes after its job, and a
   * replacement costs its start and then its cold code: about 0.9 s of CPU on this 2-core machine,
   * which at 1,000 jobs was about 0.9 ms of every one-page request (at 50 jobs, 40-50 ms).
   */
  maxJobsPerChild?: number;
  /**
   * Resident memory (bytes) a child may have kept after a job above what it had once started; beyond,
   * it is replaced (without a gap, as a worn child), so a reader's high-water mark does not last.
   */
  maxGrowthBytes?: number;
  /**
   * The quiet spell (ms without a job) after which the pool returns to rest: each idle reader that kept
   * more than restMarginBytes above its start is replaced, one at a time, without a gap.
   */
  restAfterMs?: number;
  /** Resident memory (bytes) an idle reader may keep above its start at rest (see restAfterMs). */
  restMarginBytes?: number;
  /** The project root: where the child entry, the job sources and tsconfig.json live. */
  root?: string;
  /** Processor time (ms) a job's process group may spend, for a job that does not set its own. */
  cpuBudgetMs?: number;
  /** Wall-clock limit (ms) of a job that does not set its own, from the moment the child receives it (default: WALL_PER_CPU_BUDGET × the CPU budget). */
  wallTimeoutMs?: number;
  /** Jobs that may wait for a free child; a bounded job beyond this is refused (default: no bound). */
  maxQueue?: number;
  /** Modules (absolute paths) each child imports before it takes jobs, so a job's time is its own work. */
  preload?: string[];
}

export interface RunOptions {
  /** Processor time (ms) this job's process group may spend; the pool's cpuBudgetMs by default. */
  cpuBudgetMs?: number;
  /** Wall-clock backstop of this job (ms); the pool's wallTimeoutMs by default. */
  wallTimeoutMs?: number;
  /** Whose job this is (an organization id): tenants take turns in the queue. */
  tenant?: string;
  /** false: wait however long the queue is (callers that bound their own jobs); default true. */
  bounded?: boolean;
  /** Receives the job's progress reports: the job's export gets a reporting function as its last argument. */
  onProgress?: (progress: unknown) => void;
}

/** One child per core on the 2-core machines this runs on; OCR is CPU-bound. */
const DEFAULT_POOL_SIZE = 2;
export const DEFAULT_MAX_HEAP_MB = 1024;
const DEFAULT_MAX_RSS_BYTES = 2 * 1024 * 1024 * 1024;
const DEFAULT_CPU_BUDGET_MS = 180_000;
const DEFAULT_MAX_JOBS_PER_CHILD = 10_000;
/**
 * A reader's resident memory after a job swings by about 20 MB around its
 * start (code compiled, caches filled on first use); one that kept more than
 * this holds what a document made it allocate (a V8 heap grown by a large
 * document, allocator fragmentation) and is replaced while idle.
 */
const DEFAULT_MAX_GROWTH_BYTES = 48 * 2 ** 20;
/**
 * Below maxGrowthBytes two readers could sit 96 MB above their start for good. After this long
 * without a job the pool is at rest: longer than the pauses inside a burst of work (the job
 * workers poll every 0.5-2 s, a webhook retries after 5 s), so a start (2.1-2.6 s of CPU) rarely
 * meets the next job, and at most one start per reader per spell: 9% of a core at worst
 * (a growing job every 30 s), none under steady load.
 */
export const DEFAULT_REST_AFTER_MS = 30_000;
/**
 * A reader that read nothing stays within a megabyte of its start, and fresh readers are ready at
 * 149-160 MB; one that read documents sits up to 25 MB above its ready size (measured over the
 * fuzz's cases). Above this margin a replacement gives memory back.
 */
const DEFAULT_REST_MARGIN_BYTES = 8 * 2 ** 20;
/** How often a running job's memory and processor time are read: a job overshoots a cap by at most about this. */
const USAGE_POLL_MS = 250;
/** Every so many polls the whole process group is measured (OCR and renderer processes included). */
const GROUP_POLL_EVERY = 4;
/** Weight of the newest job in the running mean of job durations behind Retry-After. */
const DURATION_SMOOTHING = 0.2;
/** The mean job duration assumed before any job has finished. */
const INITIAL_JOB_ESTIMATE_MS = 2_000;
const MAX_RETRY_AFTER_SECONDS = 300;

interface Waiting {
  job: IsolatedJob;
  cpuBudgetMs: number;
  wallTimeoutMs: number;
  onProgress?: (progress: unknown) => void;
  resolve: (value: unknown) => void;
  reject: (error: unknown) => void;
}

/** A limit in whole seconds for a message (never "0 s"). */
const seconds = (ms: number) => Math.max(1, Math.round(ms / 1000));

export class ProcessPool {
  private readonly queue = new FairQueue<Waiting>();
  private readonly idle: Slot[] = [];
  private running = 0;
  private nextId = 1;
  private meanJobMs = INITIAL_JOB_ESTIMATE_MS;
  private closed = false;
  /** A reader starting in place of a worn one (retire). */
  private replacing: Slot | undefined;
  /** Armed when the last running job ends: the quiet spell before the pool returns to rest (rest). */
  private restTimer: ReturnType<typeof setTimeout> | undefined;
  private readonly size: number;
  private readonly root: string;

  constructor(private readonly options: PoolOptions = {}) {
    this.size = Math.max(1, options.size ?? DEFAULT_POOL_SIZE);
    this.root = options.root ?? process.cwd();
    sweepOrphanedTempDirs();
  }

  /**
   * Runs a job in a child; waits while all children are busy. A bounded job
   * (the default) that would find `maxQueue` jobs already waiting is refused
   * with QueueFullError without being queued.
   */
  run<T>(job: IsolatedJob<T>, options: RunOptions = {}): Promise<T> {
    const { tenant = "", bounded = true, onProgress } = options;
    const cpuBudgetMs = options.cpuBudgetMs ?? this.options.cpuBudgetMs ?? DEFAULT_CPU_BUDGET_MS;
    const wallTimeoutMs = options.wallTimeoutMs ?? this.options.wallTimeoutMs ?? cpuBudgetMs * WALL_PER_CPU_BUDGET;
    const maxQueue = this.options.maxQueue ?? Infinity;
    const mustWait = this.running >= this.size;
    if (bounded && mustWait && this.queue.length >= maxQueue) {
      return Promise.reject(new QueueFullError(this.retryAfterSeconds()));
    }
    return new Promise<unknown>((resolve, reject) => {
      this.queue.push(tenant, { job, cpuBudgetMs, wallTimeoutMs, onProgress, resolve, reject });
      this.dispatch();
    }) as Promise<T>;
  }

  /** Starts children up to the pool's size ahead of any job, so that the first jobs do not wait for a child to load the engine. */
  warm(): void {
    while (!this.closed && this.idle.length + this.running < this.size) this.idle.push(this.spawn());
  }

  /** Resolves once every reader started so far has loaded its modules (a server says it is ready only then). */
  async ready(): Promise<void> {
    await Promise.all(this.idle.map((slot) => slot.ready.catch(() => undefined)));
  }

  /** Idle readers that have loaded their modules. */
  get readyReaders(): number {
    return this.idle.filter((slot) => slot.started).length;
  }

  /** Jobs waiting for a free child. */
  get waiting(): number {
    return this.queue.length;
  }

  /** Jobs running in a child now. */
  get busy(): number {
    return this.running;
  }

  /**
   * No job running or waiting, no quiet spell under way, no reader starting, none being replaced: the
   * readers hold what they will hold until the next job (each within restMarginBytes of its start,
   * unless its replacement failed to start).
   */
  get atRest(): boolean {
    const quiet = this.running === 0 && this.queue.length === 0 && this.restTimer === undefined;
    return quiet && this.replacing === undefined && this.idle.every((slot) => slot.started);
  }

  /** Kills every idle child; running jobs finish or hit their deadline, and their children are not replaced. */
  close(): void {
    this.closed = true;
    clearTimeout(this.restTimer);
    this.restTimer = undefined;
    for (const slot of this.idle.splice(0)) killGroup(slot.child);
  }

  /** Seconds until the jobs waiting now have probably started, from the running mean of job durations. */
  private retryAfterSeconds(): number {
    const seconds = Math.ceil((this.meanJobMs * (this.queue.length + 1)) / this.size / 1000);
    return Math.min(MAX_RETRY_AFTER_SECONDS, Math.max(1, seconds));
  }

  private dispatch(): void {
    while (this.running < this.size && this.queue.length > 0) {
      const next = this.queue.shift()!;
      this.running++;
      // A child that has loaded the engine rather than one still starting.
      const ready = this.idle.findIndex((idle) => idle.started);
      const slot = (ready >= 0 ? this.idle.splice(ready, 1)[0] : this.idle.pop()) ?? this.spawn();
      this.execute(slot, next).finally(() => {
        this.running--;
        this.dispatch();
        if (this.running === 0 && !this.closed) {
          // The quiet spell starts again with every job that leaves the pool idle.
          clearTimeout(this.restTimer);
          this.restTimer = setTimeout(() => {
            this.restTimer = undefined;
            this.rest();
          }, this.options.restAfterMs ?? DEFAULT_REST_AFTER_MS).unref();
        }
      });
    }
  }

  private spawn(): Slot {
    const slot = spawnReader(this.root, this.options.maxHeapMb ?? DEFAULT_MAX_HEAP_MB, this.options.preload ?? []);
    // An idle child that dies (killed from outside, crashed) must not be handed the next job.
    slot.child.once("exit", () => {
      const at = this.idle.indexOf(slot);
      if (at >= 0) this.idle.splice(at, 1);
    });
    return slot;
  }

  /** A reader holding more than `marginBytes` of resident memory above its start (baselineBytes), measured between jobs: its OCR and renderer processes have ended. */
  private grown(slot: Slot, marginBytes: number): boolean {
    if (slot.baselineBytes === undefined || slot.child.pid === undefined) return false;
    const now = processUsage(slot.child.pid)?.residentBytes;
    return now !== undefined && now - slot.baselineBytes > marginBytes;
  }

  /**
   * After the quiet spell: replaces an idle reader that kept more than restMarginBytes above its start
   * (retire: its replacement loads first), and once that one has loaded, the next, as long as no
   * job has come meanwhile (a job that leaves the pool idle starts the spell again).
   */
  private rest(): void {
    if (this.closed || this.running > 0 || this.queue.length > 0 || this.restTimer !== undefined) return;
    // A reader's ready size counts the young generation its warm-up grew (32 MB), which V8 gives back
    // after about 20 s idle (150 -> 125-130 MB): what a reader holds at rest, if less, is its start from then on.
    for (const slot of this.idle) {
      const now = slot.child.pid === undefined ? undefined : processUsage(slot.child.pid)?.residentBytes;
      if (slot.started && now !== undefined && slot.baselineBytes !== undefined && now < slot.baselineBytes) slot.baselineBytes = now;
    }
    const margin = this.options.restMarginBytes ?? DEFAULT_REST_MARGIN_BYTES;
    const grown = this.idle.find((slot) => slot.started && !slot.worn && this.grown(slot, margin));
    if (!grown) return;
    this.retire(grown);
    this.replacing?.ready.then(
      () => this.rest(),
      () => undefined,
    );
  }

  /**
   * Replaces a reader that has served its share of jobs, or grown, without a gap: it
   * keeps serving until its replacement has loaded its modules, and only one
   * reader is replaced at a time, so the readers never all restart at once (a
   * start costs seconds of CPU; every request would wait for it).
   */
  private retire(slot: Slot): void {
    slot.worn = true;
    if (this.closed || this.replacing) return; // its turn comes when the replacement under way has loaded, or after its next job
    const fresh = this.spawn();
    this.replacing = fresh;
    this.idle.push(fresh);
    fresh.ready.then(
      () => {
        slot.retiring = true;
        const at = this.idle.indexOf(slot);
        // Idle: gone now. Busy: killed when its job ends (finish).
        if (at >= 0) killGroup(this.idle.splice(at, 1)[0]!.child);
        if (this.replacing === fresh) this.replacing = undefined;
        // An idle reader that wore out meanwhile waited for this replacement: its turn now.
        const next = this.idle.find((other) => other.worn && !other.retiring);
        if (next) this.retire(next);
      },
      // The replacement failed to start: the worn reader serves on and is retired after its next job.
      () => {
        if (this.replacing === fresh) this.replacing = undefined;
      },
    );
  }

  /**
   * Runs one job on a child; resolves once the job has settled (answered,
   * failed or killed). The deadline counts from the moment the child has its
   * modules loaded and receives the job, so a slow start is never the file's fault.
   */
  private execute(slot: Slot, waiting: Waiting): Promise<void> {
    const { child } = slot;
    const id = this.nextId++;
    const tempDir = jobTempDirPath();
    return new Promise<void>((done) => {
      let settled = false;
      let killedFor: "cpu" | "wall" | "memory" | undefined;
      let deadline: ReturnType<typeof setTimeout> | undefined;
      let sentAt = 0;
      const finish = (outcome: () => void, reusable: boolean) => {
        if (settled) return;
        settled = true;
        clearTimeout(deadline);
        clearInterval(usageWatch);
        child.off("message", onMessage);
        child.off("exit", onExit);
        slot.jobs++;
        if (sentAt > 0) this.meanJobMs += DURATION_SMOOTHING * (performance.now() - sentAt - this.meanJobMs);
        if (slot.retiring) killGroup(child); // its replacement is already serving
        else if (reusable) {
          this.idle.push(slot);
          if (slot.jobs >= (this.options.maxJobsPerChild ?? DEFAULT_MAX_JOBS_PER_CHILD) || this.grown(slot, this.options.maxGrowthBytes ?? DEFAULT_MAX_GROWTH_BYTES)) this.retire(slot);
        } else {
          killGroup(child);
          // Start the replacement now, so the next job does not also wait for a child to load its modules.
          if (!this.closed) this.idle.push(this.spawn());
        }
        // After the reader answered or was killed (its OCR and renderer processes with it): the job
        // settles once what it wrote is gone, removed off this thread.
        void removeJobTempDir(tempDir).then(() => {
          outcome();
          done();
        });
      };
      const onMessage = (message: ChildReply) => {
        if (message.id !== id) return;
        if (message.progress !== undefined) return void (settled || waiting.onProgress?.(message.progress));
        if (message.ok) return finish(() => waiting.resolve(message.value), true);
        const error = message.error;
        const rebuilt =
          error?.name === "AnalysisError" && error.code
            ? new AnalysisError(error.code, error.message, error.page)
            : new AnalysisError("unreadable", "The file could not be read.");
        finish(() => waiting.reject(rebuilt), true);
      };
      const onExit = (code: number | null, signal: NodeJS.Signals | null) => {
        const error =
          killedFor === "cpu"
            ? new AnalysisError("timeout", `Reading the file took more than ${seconds(waiting.cpuBudgetMs)} s of processing time; it was stopped.`)
            : killedFor === "wall"
              ? new AnalysisError("timeout", `Reading the file took longer than ${seconds(waiting.wallTimeoutMs)} s; it was stopped.`)
              : killedFor === "memory"
                ? new AnalysisError("limit_exceeded", "Reading the file needed more memory than allowed; it was stopped.")
                : slot.started
                  ? new AnalysisError("unreadable", "The file could not be read: the reader stopped unexpectedly.")
                  : // Not the file's doing: the reader never started (a broken install, no memory for a process).
                    new Error(`the isolation child exited before it was ready (${signal ?? `code ${code}`})`);
        finish(() => waiting.reject(error), false);
      };
      const maxRss = this.options.maxRssBytes ?? DEFAULT_MAX_RSS_BYTES;
      let polls = 0;
      /** The reader's processor time when the job was sent (undefined until then, or where /proc is not available). */
      let cpuAtStart: number | undefined;
      const stop = (reason: NonNullable<typeof killedFor>) => {
        killedFor ??= reason;
        killGroup(child);
      };
      const usageWatch = setInterval(() => {
        if (child.pid === undefined) return;
        // The child leads its process group (detached), so the group id is its pid. Between scans of
        // the group the reader alone is read: a lower bound of both figures, so never a wrong kill.
        const usage = ++polls % GROUP_POLL_EVERY === 0 ? groupUsage(child.pid) : processUsage(child.pid);
        if (usage === undefined) return;
        if (usage.residentBytes > maxRss) stop("memory");
        else if (cpuAtStart !== undefined && usage.cpuMs - cpuAtStart > waiting.cpuBudgetMs) stop("cpu");
      }, USAGE_POLL_MS);
      child.on("message", onMessage);
      child.once("exit", onExit);
      slot.ready.then(
        () => {
          if (settled) return;
          sentAt = performance.now();
          // The reader alone (a scan of the whole group costs milliseconds of this thread, a short job's
          // whole cost): between jobs its OCR and renderer runs have ended and count in its own figure.
          cpuAtStart = child.pid === undefined ? undefined : processUsage(child.pid)?.cpuMs;
          deadline = setTimeout(() => stop("wall"), waiting.wallTimeoutMs);
          child.send({ id, tempDir, reportsProgress: waiting.onProgress !== undefined, ...waiting.job });
        },
        // The exit listener above has already settled the job; this only keeps the rejection handled.
        () => undefined,
      );
    });
  }
}
