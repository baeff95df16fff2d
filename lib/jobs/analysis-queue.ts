import type PgBoss from "pg-boss";
import { v7 as uuidv7 } from "uuid";
import { isEmbedded, type Db } from "@/db/client";
import { withoutScope, withScopeKept } from "@/db/scope";
import { analysisOrgMaxRunning, env } from "@/lib/env";
import { type Claim, takeAnalysisEntry, type TakenEntry } from "@/db/queries/analysis-jobs";
import type { FetchedEntry, QueueEntry } from "@/db/queries/queue-entries";
import { logError } from "@/lib/log";
import { abandonedReason, type Leases, sweepDeadWorkers } from "./dead-workers";
import { type EntryEnded, EntryWorkers } from "./entry-workers";
import { transactionExecutor } from "./sql-executor";
import { deleteQueue, startQueues, webhookQueueOf } from "./start-queues";
import { TableUpkeep } from "./table-upkeep";

/**
 * The analysis queue on pg-boss (see the README, "Jobs"): jobs live in the
 * application database (PostgreSQL, or embedded PGlite), so they survive a
 * restart and any number of processes on one PostgreSQL share them. A queue
 * entry carries only ids; what the job is lives in `analysis_jobs`.
 */
export interface QueuedJob {
  jobId: string;
  organizationId: string;
}

/** The queue's latest entry for a job's webhook delivery: pg-boss's state, and when it may next be sent. */
export interface WebhookEntry {
  state: "created" | "retry" | "active" | "completed" | "cancelled" | "failed";
  startAfter: Date;
}

/** pg-boss's shortest polling interval: how soon a worker elsewhere notices a new job (PostgreSQL). */
const POLLING_INTERVAL_SECONDS = 0.5;
/**
 * On embedded PGlite every job is queued by this very process, which wakes its
 * workers (wake): polling only finds retries and deferred jobs whose delay has
 * passed. Each poll is a query on the thread that serves requests, so it is rarer.
 */
const EMBEDDED_POLLING_INTERVAL_SECONDS = 2;
/** How long a job whose organization runs as many jobs as it may waits before it is handed out again. */
const DEFER_SECONDS = 1;
/** Jobs the queue gave up on only need their failure recorded: no hurry. */
const DEAD_LETTER_POLLING_INTERVAL_SECONDS = 5;
/**
 * An id for a queue entry that sorts in the order this process made it.
 * pg-boss hands out the entries of one priority by `created_on`, then by id;
 * `created_on` is the start of the transaction that sent the entry, so entries
 * sent in one transaction (the files of a compare) tie on it, and random ids
 * handed them out in any order. uuid's v7 (RFC 9562: Unix milliseconds, then a
 * counter that keeps increasing within the process) makes the tie first in,
 * first out; PostgreSQL compares uuids byte by byte.
 */
const orderedEntryId = (): string => uuidv7();

/** A worker renews its running jobs' leases, and looks for jobs whose lease ran out, this many times per lease. */
export const LEASE_RENEWALS = 3;

/** What a worker does with what the queue hands out (AnalysisQueue.work), and its jobs' leases (sweepDeadWorkers). */
export interface QueueHandlers extends Leases {
  /** Workers taking analysis jobs, one at a time each. */
  concurrency: number;
  /**
   * Runs one attempt of a job whose `claim` the worker made as it took the
   * entry (takeAnalysisEntry); throws only for failures that are not the
   * file's (the queue then retries), answers "deferred" for a job that may not
   * start yet, and `{ waiting }` when the statement that ended the job also
   * completed its queue `entry` (EntryWorkers).
   */
  handle: (job: QueuedJob, claim: Claim, entry: QueueEntry) => Promise<"deferred" | EntryEnded>;
  /** A job the queue gave up on (its last attempt failed, or its worker died): end it failed with `reason`. */
  handleAbandoned: (job: QueuedJob, reason: string) => Promise<void>;
  /** Posts a finished job's webhook; throws to have it retried. */
  deliver: (job: QueuedJob, attempt: number) => Promise<void>;
}

export class AnalysisQueue {
  /** The analysis workers (work); their entries are never handed back as dead. */
  private readonly entries: EntryWorkers<TakenEntry<QueuedJob>>;
  /** The webhook worker: one delivery at a time, woken by this process's endings (wakeWebhooks), polling for the rest. */
  private readonly webhooks: EntryWorkers<FetchedEntry<QueuedJob>>;
  private sweepTimer: ReturnType<typeof setInterval> | undefined;

  private constructor(
    private readonly boss: PgBoss,
    private readonly executor: PgBoss.Db,
    readonly name: string,
    pollingIntervalSeconds: number,
    webhookPollingSeconds: number,
    take: () => Promise<TakenEntry<QueuedJob> | undefined>,
    /** VACUUM and ANALYZE after the jobs this process's workers end, where no autovacuum runs. */
    private readonly upkeep: TableUpkeep | undefined,
  ) {
    this.entries = new EntryWorkers(boss, name, pollingIntervalSeconds * 1000, take);
    const webhooks = webhookQueueOf(name);
    this.webhooks = new EntryWorkers(boss, webhooks, webhookPollingSeconds * 1000, async () => {
      const [entry] = await boss.fetch<QueuedJob>(webhooks, { batchSize: 1, includeMetadata: true, priority: true });
      return entry && { id: entry.id, data: entry.data, priority: entry.priority, retryCount: entry.retryCount };
    });
  }

  static async start(db: Db): Promise<AnalysisQueue> {
    const config = env();
    const { boss, executor } = await startQueues(db, config);
    const name = config.ANALYSIS_QUEUE_NAME;
    // A worker takes an entry and claims its job in one statement, and never takes an entry whose
    // organization already runs as many jobs as it may. The statement enters its scopes itself.
    const take = () =>
      withScopeKept("job queue", () => takeAnalysisEntry<QueuedJob>(db, { queue: name, maxRunning: analysisOrgMaxRunning(), leaseSeconds: env().ANALYSIS_LEASE_SECONDS }));
    const polling = isEmbedded(db) ? EMBEDDED_POLLING_INTERVAL_SECONDS : POLLING_INTERVAL_SECONDS;
    const upkeep = await TableUpkeep.forDatabase(db);
    return new AnalysisQueue(boss, executor, name, polling, config.WEBHOOK_POLLING_SECONDS, take, upkeep);
  }

  /**
   * Queues an entry for a job already in the database, with `priority` (higher
   * goes first) as it is, through pg-boss's send: inside `tx` when given, and
   * to be handed out after `startAfterSeconds` when given (a deferred job). A
   * new job's entry is written by the statement that accepts it
   * (acceptAnalysisJob, with newEntryId).
   */
  async send(job: QueuedJob, priority: number, options: { tx?: Db; startAfterSeconds?: number } = {}): Promise<void> {
    await this.boss.send(this.name, job, {
      id: orderedEntryId(),
      priority,
      ...(options.tx ? { db: transactionExecutor(options.tx) } : {}),
      ...(options.startAfterSeconds === undefined ? {} : { startAfter: options.startAfterSeconds }),
    });
    this.entries.queued();
  }

  /** The id of a new entry of this queue, in the order this process made it (orderedEntryId). */
  newEntryId(): string {
    return orderedEntryId();
  }

  /** This process wrote `count` entries of this queue itself (acceptAnalysisJob): its workers look for them after their job. */
  entriesQueued(count: number): void {
    this.entries.queued(count);
  }

  /** Queues the delivery of a finished job's outcome to its callback_url, inside the transaction that ends the job: call wakeWebhooks after it commits. */
  async sendWebhook(tx: Db, job: QueuedJob): Promise<void> {
    await this.boss.send(webhookQueueOf(this.name), job, { db: transactionExecutor(tx) });
  }

  /**
   * Lets this process's webhook worker look now for a delivery queued in a
   * transaction that has committed, rather than at its next poll. Every
   * process that ends jobs runs one (work), so its poll only finds retries
   * whose wait is over and deliveries another process queued but did not send
   * (it stopped first).
   */
  wakeWebhooks(): void {
    this.webhooks.wake(1);
  }

  /** The latest entry for the delivery of `jobId`'s webhook; undefined before it is queued (or once pg-boss archived it). */
  async webhookEntry(jobId: string): Promise<WebhookEntry | undefined> {
    const { rows } = await this.executor.executeSql(
      `SELECT state, start_after AS "startAfter" FROM pgboss.job WHERE name = $1 AND data->>'jobId' = $2 ORDER BY created_on DESC LIMIT 1`,
      [webhookQueueOf(this.name), jobId],
    );
    const row = rows[0] as { state: WebhookEntry["state"]; startAfter: Date | string } | undefined;
    return row && { state: row.state, startAfter: new Date(row.startAfter) };
  }

  /**
   * Lets up to `jobs` of this process's idle workers look for a job now rather
   * than at their next poll. A busy worker is not told: it looks at once when
   * its job ends if one waits, and telling it (or more idle workers than there
   * are new jobs) only costs an empty look, a statement on the database's thread.
   */
  wake(jobs: number): void {
    this.entries.wake(jobs);
  }

  /**
   * Runs `concurrency` workers, each taking one job at a time (QueueHandlers,
   * EntryWorkers). A job answered "deferred" (its organization runs as many as
   * it may) is queued again, with its priority, to be handed out after
   * DEFER_SECONDS, and the worker looks for another. Jobs the queue gives up
   * on reach `handleAbandoned`; webhook deliveries reach `deliver` one at a
   * time. Every third of a lease, the jobs that another (dead) worker took and
   * whose lease ran out are handed back (sweepDeadWorkers). Where no
   * autovacuum runs, the tables the jobs change are kept up (TableUpkeep).
   */
  async work(handlers: QueueHandlers): Promise<void> {
    // Before the first job: a restart's tables hold what earlier runs left (a failure leaves them to the next run).
    await this.upkeep?.run().catch((error: unknown) => logError("table upkeep", error));
    this.entries.start(handlers.concurrency, async (job, entry) => {
      const ended = await handlers.handle(job.data, job.claim, entry);
      if (ended !== "deferred") {
        this.upkeep?.jobEnded();
        return ended;
      }
      // A new queue entry for the same job (claims are idempotent: an entry left over if this
      // process dies now finds the job taken or ended, and does nothing).
      await this.send(job.data, job.priority, { startAfterSeconds: DEFER_SECONDS });
      return undefined;
    });
    const deadLetters = { pollingIntervalSeconds: DEAD_LETTER_POLLING_INTERVAL_SECONDS, batchSize: 1, includeMetadata: true as const };
    await this.boss.work<QueuedJob>(`${this.name}-failed`, deadLetters, async ([job]) => {
      if (job) await handlers.handleAbandoned(job.data, abandonedReason(job.output));
    });
    // After a delivery the worker looks again at once (pg-boss completes the entry), so a backlog drains without waiting for polls.
    this.webhooks.start(1, async (job) => {
      await handlers.deliver(job.data, job.retryCount + 1);
      return undefined;
    });
    const sweep = () => void this.sweepDeadWorkers(handlers).catch((error: unknown) => logError("analysis queue: sweep", error));
    // At once too: a restart finds the jobs its predecessor died in.
    sweep();
    this.sweepTimer ??= setInterval(sweep, (handlers.leaseSeconds * 1000) / LEASE_RENEWALS);
    this.sweepTimer.unref();
  }

  /** Hands back the jobs whose worker died (sweepDeadWorkers in dead-workers.ts); those this process runs are never among them. */
  async sweepDeadWorkers(leases: Leases): Promise<number> {
    return sweepDeadWorkers({ boss: this.boss, executor: this.executor, name: this.name, running: this.entries.running }, leases);
  }

  /**
   * Stops taking jobs. Graceful: running jobs get `timeoutMs` to finish; a job
   * still running then is handed back (failed, so the queue retries it elsewhere).
   */
  async stop(options: { graceful: boolean; timeoutMs?: number }): Promise<void> {
    clearInterval(this.sweepTimer);
    // pg-boss's own worker (dead letters) stops alongside the analysis and webhook workers, within the same timeout.
    await Promise.all([
      this.entries.stop(options),
      this.webhooks.stop(options),
      this.boss.stop({ graceful: options.graceful, timeout: options.timeoutMs, wait: true, close: false }),
      this.upkeep?.finished(),
    ]);
  }

  /** Removes an organization's entries, in every state, from this queue and its dead letters and webhooks (the start-up warm-up's). */
  async deleteEntriesOf(organizationId: string): Promise<void> {
    await this.executor.executeSql("DELETE FROM pgboss.job WHERE name IN ($1, $2, $3) AND data->>'organizationId' = $4", [
      this.name,
      `${this.name}-failed`,
      webhookQueueOf(this.name),
      organizationId,
    ]);
  }

  /** Removes the queue and its jobs (tests that made a queue of their own). */
  async destroy(): Promise<void> {
    // Jobs in every state reference their queue (pg-boss's purge removes only waiting ones).
    for (const name of [this.name, `${this.name}-failed`, webhookQueueOf(this.name)]) {
      await this.executor.executeSql("DELETE FROM pgboss.job WHERE name = $1", [name]);
      await deleteQueue(this.boss, name);
    }
  }
}

const QUEUES = Symbol.for("shipshape.analysis-queues");

/**
 * One queue per database handle (the process's, or a test's), started on
 * first use: outside any row-level security scope, as its timers outlive the
 * request that happened to start it.
 */
export function analysisQueue(db: Db): Promise<AnalysisQueue> {
  const holder = globalThis as typeof globalThis & { [QUEUES]?: WeakMap<Db, Promise<AnalysisQueue>> };
  const queues = (holder[QUEUES] ??= new WeakMap());
  let queue = queues.get(db);
  if (!queue) {
    queue = withoutScope(() => AnalysisQueue.start(db));
    queue.catch(() => queues.delete(db));
    queues.set(db, queue);
  }
  return queue;
}

/** Stops and forgets the queue of `db`, if it was started. */
export async function stopAnalysisQueue(db: Db, options: { graceful: boolean; timeoutMs?: number; destroy?: boolean }): Promise<void> {
  const holder = globalThis as typeof globalThis & { [QUEUES]?: WeakMap<Db, Promise<AnalysisQueue>> };
  const queue = await holder[QUEUES]?.get(db)?.catch(() => undefined);
  holder[QUEUES]?.delete(db);
  if (!queue) return;
  await queue.stop(options);
  if (options.destroy) await queue.destroy();
}
