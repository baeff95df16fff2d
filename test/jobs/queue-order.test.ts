import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Db } from "@/db/client";
import { newId } from "@/db/ids";
import { sql } from "drizzle-orm";
import { queryRows } from "@/db/queries/rows";
import { analysisQueue, forgetAnalysisWorker, type AnalysisQueue } from "@/lib/jobs";
import { seedOrganization, testDatabases, type TestDatabase } from "../support/databases";
import { acceptTestJob } from "../support/job-rows";

/**
 * The order in which the queue hands out jobs, to a worker that only records
 * what it is given: by priority, an organization's jobs of one priority in the
 * order they were sent, and a worker that finished a job takes the next at
 * once; and the priority admission gives a job, which never goes ahead of its
 * organization's jobs still waiting.
 * Each case sends its jobs in one transaction, so that the worker sees all of
 * them or none (polling between two sends, it would rightly take the first
 * before the second exists); entries of one transaction share pg-boss's
 * created_on, so their order among one priority is the entries' ids'.
 */
function recordingQueue(database: TestDatabase) {
  const state = { db: undefined as Db | undefined, queue: undefined as AnalysisQueue | undefined, taken: [] as string[] };
  let waiters: (() => void)[] = [];
  beforeAll(async () => {
    state.db = await database.open();
    state.queue = await analysisQueue(state.db);
    await state.queue.work({
      concurrency: 1,
      handle: async (job) => {
        state.taken.push(job.jobId);
        const pending = waiters;
        waiters = [];
        for (const waiter of pending) waiter();
      },
      handleAbandoned: async () => undefined,
      deliver: async () => undefined,
      leased: async (_organizationId, jobIds) => jobIds,
      leaseSeconds: 30,
    });
  });
  afterAll(async () => {
    if (!state.db) return;
    forgetAnalysisWorker(state.db);
    await database.close(state.db);
  });
  return {
    taken: state.taken,
    /** Sends the jobs one after another in one transaction (as a compare sends its files), without waking the worker. */
    send: async (jobs: { organizationId: string; priority: number }[]) => {
      const ids: string[] = [];
      await state.db!.transaction(async (tx) => {
        for (const job of jobs) {
          const jobId = newId("ana");
          await state.queue!.send({ jobId, organizationId: job.organizationId }, job.priority, { tx });
          ids.push(jobId);
        }
      });
      return ids;
    },
    /** Resolves once `count` jobs have been taken in all. */
    takenAll: (count: number) =>
      new Promise<void>((resolve) => {
        const check = () => (state.taken.length >= count ? resolve() : waiters.push(check));
        check();
      }),
  };
}

describe.each(testDatabases())("queue order on $name", (database) => {
  const queue = recordingQueue(database);

  it("interleaves organizations by priority, an organization's jobs in the order they were sent", { timeout: 60_000 }, async () => {
    const a = newId("org");
    const b = newId("org");
    // Admission gave A's first job -3 (three of A's jobs unfinished then) and its second -3 too (not
    // above A's first, still waiting); B's first job got 0.
    const [aFirst, aSecond, bFirst] = await queue.send([
      { organizationId: a, priority: -3 },
      { organizationId: a, priority: -3 },
      { organizationId: b, priority: 0 },
    ]);
    await queue.takenAll(3);
    expect(queue.taken).toEqual([bFirst, aFirst, aSecond]);
  });

  it("hands out an organization's jobs of one priority sent in one transaction first in, first out", { timeout: 60_000 }, async () => {
    const a = newId("org");
    const before = queue.taken.length;
    const sent = await queue.send(Array.from({ length: 8 }, () => ({ organizationId: a, priority: 0 })));
    await queue.takenAll(before + sent.length);
    expect(queue.taken.slice(before)).toEqual(sent);
  });
});

describe("a worker on PGlite, which polls every 2 s", () => {
  const queue = recordingQueue(testDatabases().find((database) => database.name === "pglite")!);

  it("takes the next job as soon as it has finished one, not at its next poll", { timeout: 60_000 }, async () => {
    // Wait until the worker's first poll (at its start) has come back empty.
    await new Promise((resolve) => setTimeout(resolve, 500));
    const started = performance.now();
    await queue.send([0, 0, 0, 0].map((priority) => ({ organizationId: newId("org"), priority })));
    await queue.takenAll(4);
    // The first is found at the next poll (at most 2 s); a poll for each of the other three would add about 6 s.
    expect(performance.now() - started).toBeLessThan(5_500);
  });
});

/**
 * The accepting statement writes its job's queue entry into pg-boss's table
 * itself (insertEntrySql): the entry must be the one pg-boss's own send writes
 * for the same queue, with every setting the queue gives it (dead letter,
 * expiry, retention, retries), so that pg-boss fetches, retries, expires and
 * archives it as its own; this fails when an upgrade of pg-boss changes what
 * send writes. Its priority is admission's.
 */
describe.each(testDatabases())("a job's admission and queue entry on $name", (database) => {
  let db: Db;
  let queue: AnalysisQueue;
  beforeAll(async () => {
    db = await database.open();
    // The queue without a worker: what is sent stays waiting.
    queue = await analysisQueue(db);
  });
  afterAll(async () => {
    await database.close(db);
  });

  /** The priority of the entry the accepting statement wrote for a new job of `organizationId`. */
  async function acceptedPriority(organizationId: string): Promise<number> {
    const job = await acceptTestJob(db, queue, organizationId);
    const [entry] = await queryRows<{ priority: number }>(db, sql`SELECT priority FROM pgboss.job WHERE name = ${queue.name} AND data->>'jobId' = ${job.id}`);
    return Number(entry?.priority);
  }

  it("gives minus the organization's unfinished jobs, never above its lowest waiting entry", { timeout: 60_000 }, async () => {
    const a = (await seedOrganization(db, { prefix: "order-a" })).organization.id;
    const b = (await seedOrganization(db, { prefix: "order-b" })).organization.id;
    // Entries of A sent when more of its jobs were unfinished: a new job of A must not overtake them.
    await db.transaction((tx) => queue.send({ jobId: newId("ana"), organizationId: a }, -3, { tx }));
    await db.transaction((tx) => queue.send({ jobId: newId("ana"), organizationId: a }, -1, { tx }));
    expect(await acceptedPriority(a)).toBe(-3);
    // B has no job unfinished and no entry waiting; then one job unfinished, waiting at 0.
    expect(await acceptedPriority(b)).toBe(0);
    expect(await acceptedPriority(b)).toBe(-1);
  });

  /** Everything of an entry that does not name it or its moment. */
  async function entryOf(jobId: string) {
    const [row] = await queryRows<Record<string, unknown>>(
      db,
      sql`SELECT name, data, priority, state, retry_limit, retry_count, retry_delay, retry_backoff, singleton_key, singleton_on,
                 expire_in::text AS expire_in, keep_until - start_after AS kept_for, start_after <= created_on AS starts_at_once,
                 started_on, completed_on, output, dead_letter, policy
          FROM pgboss.job WHERE name = ${queue.name} AND data->>'jobId' = ${jobId}`,
    );
    return row;
  }

  it("is the entry pg-boss's own send writes for the same job and priority", { timeout: 60_000 }, async () => {
    const organizationId = (await seedOrganization(db, { prefix: "entry" })).organization.id;
    const job = await acceptTestJob(db, queue, organizationId);
    const ours = await entryOf(job.id);
    // The same job's entry as pg-boss writes it, with the priority admission gave ours.
    await db.execute(sql`DELETE FROM pgboss.job WHERE name = ${queue.name} AND data->>'jobId' = ${job.id}`);
    await db.transaction((tx) => queue.send({ jobId: job.id, organizationId }, Number(ours?.priority), { tx }));
    const theirs = await entryOf(job.id);
    expect(ours).toBeDefined();
    expect(ours).toEqual(theirs);
    // The analysis queue's own settings, not pg-boss's defaults: its failures go to its dead letters.
    expect(ours?.dead_letter).toBe(`${queue.name}-failed`);
  });
});
