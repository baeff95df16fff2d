import { sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { isEmbedded, type Db } from "@/db/client";
import { queryRows } from "@/db/queries/rows";
import { analysisQueue, stopAnalysisQueue } from "@/lib/jobs";
import { TableUpkeep } from "@/lib/jobs/table-upkeep";
import { testDatabases } from "../support/databases";

/** The tables a job changes, as pg_stat_all_tables names them (pgboss.job by this file's queue's partition). */
async function churnedTables(db: Db, queue: string): Promise<{ schema: string; table: string }[]> {
  const [partition] = await queryRows<{ table: string }>(db, sql`SELECT partition_name AS table FROM pgboss.queue WHERE name = ${queue}`);
  return [
    ...["analysis_jobs", "stored_files", "document_chunks", "rate_limits"].map((table) => ({ schema: "public", table })),
    { schema: "pgboss", table: partition!.table },
  ];
}

/** When each table was last vacuumed and analysed (null: never). */
async function upkeptAt(db: Db, tables: { schema: string; table: string }[]): Promise<{ vacuumed: Date | null; analysed: Date | null }[]> {
  const result: { vacuumed: Date | null; analysed: Date | null }[] = [];
  for (const { schema, table } of tables) {
    const [row] = await queryRows<{ vacuumed: string | null; analysed: string | null }>(
      db,
      sql`SELECT last_vacuum AS vacuumed, last_analyze AS analysed FROM pg_stat_all_tables WHERE schemaname = ${schema} AND relname = ${table}`,
    );
    result.push({ vacuumed: row?.vacuumed ? new Date(row.vacuumed) : null, analysed: row?.analysed ? new Date(row.analysed) : null });
  }
  return result;
}

/**
 * Where no autovacuum runs (embedded PGlite; a PostgreSQL with it off), the
 * queue vacuums and analyses the tables its jobs change, as autovacuum would
 * (after enough jobs, at most once a minute):
 * otherwise their space is never reused and the plans made on them while they
 * were empty are kept however large they grow (TableUpkeep).
 */
describe.each(testDatabases())("the tables a job changes on $name", (database) => {
  let db: Db;
  let queue: string;

  beforeAll(async () => {
    db = await database.open();
    // pg-boss's schema and this file's queue (its partition).
    queue = (await analysisQueue(db)).name;
  }, 120_000);
  afterAll(async () => {
    if (!db) return;
    await stopAnalysisQueue(db, { graceful: true });
    await database.close(db);
  });

  it("are kept up by the queue where no autovacuum runs, and left to autovacuum where it does", async () => {
    const [settings] = isEmbedded(db)
      ? [{ automatic: false }]
      : await queryRows<{ automatic: boolean }>(db, sql`SELECT current_setting('autovacuum') = 'on' AND current_setting('track_counts') = 'on' AS automatic`);
    const upkeep = await TableUpkeep.forDatabase(db);
    expect(upkeep === undefined).toBe(settings!.automatic);
  });

  it("are vacuumed and analysed once 50 jobs have ended and a minute has passed", { timeout: 60_000 }, async () => {
    // Only Date is faked: the database's own clock dates the runs.
    vi.useFakeTimers({ toFake: ["Date"] });
    try {
      // Where autovacuum runs, the queue makes none; the test makes one all the same.
      const upkeep = (await TableUpkeep.forDatabase(db)) ?? new TableUpkeep(db);
      const tables = await churnedTables(db, queue);
      const before = await upkeptAt(db, tables);
      // Enough jobs, within the minute after the start: nothing runs yet.
      for (let i = 0; i < 50; i++) upkeep.jobEnded();
      await upkeep.finished();
      // PGlite's database is this file's own: nothing else ran it. (PostgreSQL's tables are shared with other files' queues.)
      if (isEmbedded(db)) expect(await upkeptAt(db, tables)).toEqual(before);
      vi.setSystemTime(Date.now() + 60_000);
      const [{ now }] = (await queryRows<{ now: string }>(db, sql`SELECT now() AS now`)) as [{ now: string }];
      upkeep.jobEnded();
      await upkeep.finished();
      const after = await upkeptAt(db, tables);
      for (const [i, { table }] of tables.entries()) {
        expect(after[i]!.vacuumed?.getTime() ?? 0, `${table} vacuumed`).toBeGreaterThanOrEqual(new Date(now).getTime());
        expect(after[i]!.analysed?.getTime() ?? 0, `${table} analysed`).toBeGreaterThanOrEqual(new Date(now).getTime());
      }
      // A minute later again, 49 more jobs are not enough.
      vi.setSystemTime(Date.now() + 60_000);
      for (let i = 0; i < 49; i++) upkeep.jobEnded();
      await upkeep.finished();
      if (isEmbedded(db)) expect(await upkeptAt(db, tables)).toEqual(after);
    } finally {
      vi.useRealTimers();
    }
  });
});
