import { sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Db } from "@/db/client";
import { queryRows } from "@/db/queries/rows";
import { analysisQueue, stopAnalysisQueue } from "@/lib/jobs";
import { testDatabases } from "../support/databases";

/** Entries a queue keeps after they end (pg-boss deletes them days later): the history a lookup must not read. */
const ENDED_ENTRIES = 2_000;
/** Buffers a lookup by key may read: a few index pages and the row's (reading the history took thousands). */
const MAX_BUFFERS = 64;

interface PlanNode {
  "Shared Hit Blocks": number;
  "Shared Read Blocks": number;
}

/** Rolls the transaction back once the plans are read: nothing the statements did is kept. */
class RolledBack extends Error {}

/**
 * The take and the ending of every job find its queue entry by the queue's
 * name and the entry's id, pg-boss's primary key, in plans made once per
 * connection (the statement cache; the queue's PL/pgSQL functions plan
 * generically, migration 0023). Made on a queue's empty partition, as a
 * server's first jobs make them, every path costs alike, and where no
 * ANALYZE runs (PGlite, PostgreSQL without autovacuum) nothing plans them
 * again: the lookup must still read its entry by the key once thousands of
 * ended entries are kept, not the queue's history (migration 0024: 1,948
 * buffers an ending and 2,748 a take after 5,000 jobs).
 */
describe.each(testDatabases())("a queue entry looked up by its key on $name", (database) => {
  let db: Db;
  let queue: string;

  beforeAll(async () => {
    db = await database.open();
    queue = (await analysisQueue(db)).name;
  }, 120_000);
  afterAll(async () => {
    if (!db) return;
    await stopAnalysisQueue(db, { graceful: true });
    await database.close(db);
  });

  /**
   * `statement` (taking the queue's name as $1 and `parameter`, a literal of
   * `types`' second, as $2) prepared with a generic plan while the queue's
   * partition is empty, then run on the same plan once it holds
   * ENDED_ENTRIES ended entries, one running and one waiting: the buffers
   * that run read.
   */
  async function buffersOnKeptPlan(statement: string, types: string, parameter: string): Promise<number> {
    let buffers = NaN;
    await db
      .transaction(async (tx) => {
        const run = async (analyze: boolean) => {
          // EXECUTE takes no bound parameters: the queue's name is this file's own (test-<hex>).
          const options = analyze ? "ANALYZE, BUFFERS, FORMAT JSON" : "FORMAT JSON";
          const rows = await queryRows<{ "QUERY PLAN": [{ Plan: PlanNode }] | string }>(tx, sql.raw(`EXPLAIN (${options}) EXECUTE entry_lookup('${queue}', ${parameter})`));
          const value = rows[0]!["QUERY PLAN"];
          return (typeof value === "string" ? JSON.parse(value) : value)[0].Plan as PlanNode;
        };
        await tx.execute(sql`SET LOCAL plan_cache_mode = force_generic_plan`);
        await tx.execute(sql.raw(`PREPARE entry_lookup(${types}) AS ${statement}`));
        await run(false);
        await tx.execute(sql`INSERT INTO pgboss.job (name, id, state, data, started_on, completed_on)
          SELECT ${queue}, gen_random_uuid(), 'completed', jsonb_build_object('jobId', 'ana_' || i, 'organizationId', 'org'), now(), now()
          FROM generate_series(1, ${ENDED_ENTRIES}::integer) AS i`);
        await tx.execute(sql`INSERT INTO pgboss.job (name, id, state, data, start_after)
          VALUES (${queue}, '00000000-0000-4000-8000-000000000001', 'active', '{"jobId": "ana_running", "organizationId": "org"}', now() - interval '1 second'),
                 (${queue}, '00000000-0000-4000-8000-000000000002', 'created', '{"jobId": "ana_waiting", "organizationId": "org"}', now() - interval '1 second')`);
        const plan = await run(true).finally(() => tx.execute(sql`DEALLOCATE entry_lookup`));
        buffers = plan["Shared Hit Blocks"] + plan["Shared Read Blocks"];
        throw new RolledBack();
      })
      .catch((error: unknown) => {
        if (!(error instanceof RolledBack)) throw error;
      });
    return buffers;
  }

  it("ends an entry by its key (the ending's lookup, as pg-boss's complete makes it too)", async () => {
    const ending = `UPDATE pgboss.job SET completed_on = now(), state = 'completed', output = NULL WHERE name = $1 AND id = $2 AND state = 'active' RETURNING id`;
    const buffers = await buffersOnKeptPlan(ending, "text, uuid", "'00000000-0000-4000-8000-000000000001'");
    expect(buffers).toBeLessThan(MAX_BUFFERS);
  });

  it("takes the next waiting entry by its key (fetch_analysis_entry's own statement)", async () => {
    const [fetch] = await queryRows<{ body: string }>(db, sql`SELECT prosrc AS body FROM pg_proc WHERE proname = 'fetch_analysis_entry'`);
    // The function's one statement, its arguments as the prepared statement's parameters.
    const statement = /RETURN QUERY([\s\S]*?);\s*END/.exec(fetch!.body)![1]!.replaceAll('"queue"', "$1").replaceAll('"max_running"', "$2");
    const buffers = await buffersOnKeptPlan(statement, "text, integer", "2");
    expect(buffers).toBeLessThan(MAX_BUFFERS);
  });
});
