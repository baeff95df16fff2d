import { randomBytes } from "node:crypto";
import { sql } from "drizzle-orm";
import PgBoss from "pg-boss";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Db } from "@/db/client";
import { completeEntrySql, entryWaitingSql, type FetchedEntry, type QueueEntry } from "@/db/queries/queue-entries";
import { queryRows } from "@/db/queries/rows";
import { type EntryEnded, EntryWorkers } from "@/lib/jobs/entry-workers";
import { clientExecutor } from "@/lib/jobs/sql-executor";
import { createQueueOnce } from "@/lib/jobs/start-queues";
import { testDatabases } from "../support/databases";
import { until } from "./support";

/** Longer than any test: a worker that looks again did so because it was told to, never by its poll. */
const NEVER_MS = 600_000;

type Entry = { name: string };

/**
 * The workers that take a queue's entries with pg-boss's fetch in place of
 * its work(): the handler's ending statement completes the entry and says
 * whether another waits, and the worker looks again at once only then (or
 * when woken); what work() gave is kept: a handler that throws has its entry
 * failed through pg-boss (retried), one that completed nothing has pg-boss
 * complete it, and a graceful stop hands back what still runs at its timeout.
 */
describe.each(testDatabases())("queue entry workers on $name", (database) => {
  let db: Db;
  let boss: PgBoss;
  /** pg-boss's statements, by text, once answered. */
  const sent: string[] = [];
  const fetches = () => sent.filter((text) => text.includes("FOR UPDATE SKIP LOCKED")).length;

  beforeAll(async () => {
    db = await database.open();
    const executor = clientExecutor(db);
    const record = async (text: string, values: unknown[]) => {
      const result = await executor.executeSql(text, values);
      sent.push(text);
      return result;
    };
    boss = new PgBoss({ db: { executeSql: record }, schedule: false, supervise: false });
    await boss.start();
  });
  afterAll(async () => {
    await boss?.stop({ graceful: false, close: false });
    if (db) await database.close(db);
  });

  /** A queue of the test's own; a failed entry is retried a minute later (after the test). */
  async function queue(): Promise<string> {
    const name = `entries-${randomBytes(6).toString("hex")}`;
    await createQueueOnce(boss, name, { name, retryLimit: 2, retryDelay: 60 });
    return name;
  }

  /** The workers' look for an entry of `name`: pg-boss's own fetch (the analysis queue's skips capped organizations, capped-fetch.test.ts). */
  const fetchOf = (name: string) => async () => {
    const [entry] = await boss.fetch<Entry>(name, { batchSize: 1, includeMetadata: true, priority: true });
    return entry && { id: entry.id, data: entry.data, priority: entry.priority, retryCount: entry.retryCount };
  };

  async function state(name: string, id: string): Promise<{ state: string; output: unknown } | undefined> {
    const [row] = await queryRows<{ state: string; output: unknown }>(db, sql`SELECT state, output FROM pgboss.job WHERE name = ${name} AND id = ${id}::uuid`);
    return row;
  }

  /** What run-analysis does at a job's end: the entry completed in the ending statement, which says whether another waits. */
  async function endWithEntry(entry: QueueEntry): Promise<EntryEnded> {
    const [row] = await queryRows<{ waiting: boolean }>(db, sql`WITH entry_done AS (${completeEntrySql(entry)}) SELECT ${entryWaitingSql(entry.queue)} AS waiting`);
    return { waiting: row!.waiting };
  }

  it("leaves completion to the ending statement and looks again at once only when it says another entry waits", { timeout: 60_000 }, async () => {
    const name = await queue();
    const ids = [(await boss.send(name, { name: "first" }))!, (await boss.send(name, { name: "second" }))!];
    const workers = new EntryWorkers<FetchedEntry<Entry>>(boss, name, NEVER_MS, fetchOf(name));
    const handled: string[] = [];
    const before = { fetches: fetches(), sent: sent.length };
    workers.start(1, async (entry, ref) => {
      handled.push(entry.data.name);
      return endWithEntry(ref);
    });
    await until(async () => handled.length === 2, 30_000, "both entries to be handled");
    await workers.stop({ graceful: true });
    // The second was taken at once after the first (its ending said so); after the second nothing waited: no third look.
    expect({ handled, fetches: fetches() - before.fetches }).toEqual({ handled: ["first", "second"], fetches: 2 });
    expect(sent.slice(before.sent).filter((text) => /SET completed_on/.test(text))).toEqual([]);
    for (const id of ids) expect((await state(name, id))?.state).toBe("completed");
  });

  it("fails through pg-boss an entry whose handler throws, and completes one whose handler completed nothing", { timeout: 60_000 }, async () => {
    const name = await queue();
    const thrown = (await boss.send(name, { name: "throws" }))!;
    const plain = (await boss.send(name, { name: "plain" }))!;
    const workers = new EntryWorkers<FetchedEntry<Entry>>(boss, name, NEVER_MS, fetchOf(name));
    const handled: string[] = [];
    workers.start(1, async (entry) => {
      handled.push(entry.data.name);
      if (entry.data.name === "throws") throw new Error("the database went away");
      return undefined;
    });
    await until(async () => (await state(name, plain))?.state === "completed", 30_000, "the plain entry to complete");
    await workers.stop({ graceful: true });
    expect(handled).toEqual(["throws", "plain"]);
    expect(await state(name, thrown)).toMatchObject({ state: "retry", output: { message: "the database went away" } });
  });

  it("lets a woken idle worker look at once, and hands back at a graceful stop's timeout the entry still running", { timeout: 60_000 }, async () => {
    const name = await queue();
    const workers = new EntryWorkers<FetchedEntry<Entry>>(boss, name, NEVER_MS, fetchOf(name));
    const before = fetches();
    let release: () => void = () => undefined;
    const taken: string[] = [];
    workers.start(1, async (entry) => {
      taken.push(entry.id);
      await new Promise<void>((resolve) => (release = resolve));
      return undefined;
    });
    // Its first look found nothing: only wake makes it look again before NEVER_MS.
    await until(async () => fetches() > before, 30_000, "the worker's first look");
    const id = (await boss.send(name, { name: "slow" }))!;
    workers.wake(1);
    await until(async () => taken.length === 1, 30_000, "the woken worker to take the entry");
    await workers.stop({ graceful: true, timeoutMs: 1_000 });
    expect(await state(name, id)).toMatchObject({ state: "retry", output: { value: "pg-boss shut down while active" } });
    release();
  });
});
