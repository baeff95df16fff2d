import type PgBoss from "pg-boss";
import type { FetchedEntry, QueueEntry } from "@/db/queries/queue-entries";
import { logError } from "@/lib/log";

/**
 * What running an entry left: `{ waiting }` when the handler's own ending
 * statement completed the entry and saw whether another waits; undefined
 * when the worker is to complete it with pg-boss (an entry whose job had
 * already ended, or was deferred).
 */
export type EntryEnded = { waiting: boolean } | undefined;

export type EntryHandler<E> = (entry: E, ref: QueueEntry) => Promise<EntryEnded>;

/** Takes the next entry a worker may run now (`active`), or undefined. */
export type FetchEntry<E> = () => Promise<E | undefined>;

/** What pg-boss's own stop records for the entries it hands back (manager.js failWip). */
const SHUT_DOWN_MESSAGE = "pg-boss shut down while active";
/** pg-boss's stop waits at least this long for running handlers, and 30 s unless told. */
const MIN_STOP_TIMEOUT_MS = 1_000;
const DEFAULT_STOP_TIMEOUT_MS = 30_000;

interface Worker {
  busy: boolean;
  /** Woken (wake) since its last look: it looks again instead of sleeping. */
  notified: boolean;
  endSleep?: () => void;
}

/**
 * Workers taking one queue's entries one at a time with `fetchEntry` (the
 * analysis queue's skips organizations at their running cap), in place of
 * pg-boss's work(), which completes every entry in a statement of its own
 * after the handler and, told to look again after each job (or else sleeping
 * out its polling interval), looks even when nothing waits. Here the
 * handler's ending statement completes the entry and says whether another
 * waits; the worker then looks at once only if one does, or if this process
 * queued one its workers have not taken (`queued`; a job committed by another
 * process after that statement is found by the next poll, as it always was).
 * What work() gave is kept: a handler that throws has its entry failed
 * through pg-boss (retries with backoff, then the dead letter); a worker
 * polls every `pollingMs` when idle, or at once when woken; stop waits for
 * running handlers up to its timeout, then hands back those still running.
 * A handler that never ends keeps its worker, but its entry is expired by
 * pg-boss's maintenance after the queue's expiry, as work()'s handler
 * timeout (the same expiry) did.
 */
export class EntryWorkers<E extends FetchedEntry<unknown>> {
  private readonly workers: Worker[] = [];
  private readonly loops: Promise<void>[] = [];
  private stopping = false;
  /** Entries this process queued (sent or deferred) that its workers have not taken yet. */
  private unfetched = 0;
  /** Entries this process's workers are running now (never handed back as dead). */
  readonly running = new Set<string>();

  constructor(
    private readonly boss: PgBoss,
    private readonly name: string,
    private readonly pollingMs: number,
    private readonly fetchEntry: FetchEntry<E>,
  ) {}

  start(concurrency: number, handle: EntryHandler<E>): void {
    for (let i = 0; i < concurrency; i++) {
      const worker: Worker = { busy: false, notified: false };
      this.workers.push(worker);
      this.loops.push(this.loop(worker, handle));
    }
  }

  /** This process queued `count` entries (its workers look for them at once after their job). */
  queued(count = 1): void {
    this.unfetched += count;
  }

  /** Lets up to `jobs` idle workers look now rather than at their next poll (a busy one looks when its job ends if one waits). */
  wake(jobs: number): void {
    let left = jobs;
    for (const worker of this.workers) {
      if (left <= 0) return;
      if (worker.busy) continue;
      worker.notified = true;
      worker.endSleep?.();
      left--;
    }
  }

  private async loop(worker: Worker, handle: EntryHandler<E>): Promise<void> {
    while (!this.stopping) {
      worker.notified = false;
      let lookAgain = false;
      // A failed look (a lost connection) is logged, and the next poll tries again.
      const entry = await this.fetchEntry().catch((error: unknown) => {
        logError(`analysis queue ${this.name}: fetch`, error);
        return undefined;
      });
      if (entry) lookAgain = await this.run(worker, entry, handle);
      // Nothing this process queued waits any more (it committed before this look, or woke this worker after it).
      else this.unfetched = 0;
      if (!lookAgain && !worker.notified && !this.stopping) await this.sleep(worker);
    }
  }

  /** Runs one entry; true when the worker should look for the next at once. */
  private async run(worker: Worker, entry: E, handle: EntryHandler<E>): Promise<boolean> {
    worker.busy = true;
    this.unfetched = Math.max(0, this.unfetched - 1);
    this.running.add(entry.id);
    try {
      const ended = await handle(entry, { queue: this.name, id: entry.id });
      if (ended) return ended.waiting || this.unfetched > 0;
      await this.boss.complete(this.name, entry.id);
    } catch (error) {
      // pg-boss retries it with backoff or, after its last attempt, sends it to the dead letters.
      await this.boss.fail(this.name, entry.id, error as object).catch((failure: unknown) => logError(`analysis queue ${this.name}: fail`, failure));
    } finally {
      this.running.delete(entry.id);
      worker.busy = false;
    }
    return true;
  }

  private sleep(worker: Worker): Promise<void> {
    return new Promise((resolve) => {
      const end = () => {
        clearTimeout(timer);
        worker.endSleep = undefined;
        resolve();
      };
      const timer = setTimeout(end, this.pollingMs);
      worker.endSleep = end;
    });
  }

  /**
   * Stops taking entries. Graceful: running handlers get `timeoutMs` to end;
   * entries still running then are failed, so pg-boss retries them elsewhere.
   */
  async stop(options: { graceful: boolean; timeoutMs?: number }): Promise<void> {
    this.stopping = true;
    for (const worker of this.workers) worker.endSleep?.();
    if (options.graceful) {
      let timer: ReturnType<typeof setTimeout> | undefined;
      const timeout = new Promise((resolve) => (timer = setTimeout(resolve, Math.max(options.timeoutMs ?? DEFAULT_STOP_TIMEOUT_MS, MIN_STOP_TIMEOUT_MS))));
      await Promise.race([Promise.all(this.loops), timeout]).finally(() => clearTimeout(timer));
    }
    // One at a time: pg-boss's types take a failure's output only for a single id.
    for (const id of [...this.running]) await this.boss.fail(this.name, id, { value: SHUT_DOWN_MESSAGE });
  }
}
