import { sql } from "drizzle-orm";
import { isEmbedded, type Db } from "@/db/client";
import { queryRows } from "@/db/queries/rows";
import { withoutScope } from "@/db/scope";
import { logError } from "@/lib/log";

/**
 * The tables every job changes: its row and its queue entry (inserted, then
 * updated as they are taken and ended), its stored bytes (inserted, then
 * deleted once read), the rate limit's buckets (updated per request).
 * `analyses` only grows and is read by key: it needs neither.
 */
const CHURNED_TABLES = sql.raw(["analysis_jobs", "pgboss.job", "stored_files", "document_chunks", "rate_limits"].join(", "));
/** Jobs ended before the tables are kept up again: autovacuum's analyze threshold, 50 rows and a tenth of the table. */
const BASE_JOBS = 50;
const TABLE_FRACTION = 0.1;
/**
 * And at least this long after the last run: autovacuum's naptime. It keeps
 * the upkeep (and the plans its ANALYZE has made again) out of the first
 * minute after a start, when the warm-up's 48 jobs and the first requests run.
 */
const NAPTIME_MS = 60_000;
/**
 * Rows ANALYZE samples are 300 times this (PostgreSQL's default is 100:
 * 30,000). Enough for what the plans ask (a job's status, a queue's name, an
 * entry's state: a few values each), and the sample is what ANALYZE costs: on
 * PGlite, on the thread that serves requests, 68 ms against 390 for tables of
 * 20,000 jobs (pgboss.job, sampled for its partitions and again as a whole, 47
 * against 298).
 */
const STATISTICS_TARGET = 10;

/**
 * VACUUM and ANALYZE of the tables every job changes, where nothing else
 * runs them: embedded PGlite has no autovacuum, nor has a PostgreSQL whose
 * `autovacuum` (or `track_counts`) is off. Without them the space of ended
 * jobs' rows and stored bytes is never reused (the database only grows), and
 * the planner never learns the tables' sizes: plans made on a new, empty
 * table (each connection's prepared statements, PL/pgSQL's generic plans)
 * are kept however large it grows, and the admission's count read every job
 * ever accepted (3.1 ms a request after 5,100 jobs, and rising). ANALYZE
 * also has those plans made again.
 *
 * Run as autovacuum would: once the jobs ended since the last run reach
 * 50 plus a tenth of the jobs table and a minute has passed, and once when
 * the worker starts, before it takes a job. One run
 * at a time; SKIP_LOCKED, so processes sharing a PostgreSQL never wait on each
 * other's. A table this role does not own is skipped with PostgreSQL's warning.
 * VACUUM updates each table's size for the planner; ANALYZE, with a small
 * sample (STATISTICS_TARGET), what its columns hold.
 */
export class TableUpkeep {
  private endedSinceRun = 0;
  private threshold = BASE_JOBS;
  private lastRunAt = Date.now();
  private running: Promise<void> | undefined;

  /** The upkeep of `db`, whatever its settings: forDatabase decides whether it needs one. */
  constructor(private readonly db: Db) {}

  /** The upkeep for this database, or undefined when autovacuum does it already. */
  static async forDatabase(db: Db): Promise<TableUpkeep | undefined> {
    if (isEmbedded(db)) return new TableUpkeep(db);
    const [settings] = await withoutScope(() =>
      queryRows<{ automatic: boolean }>(db, sql`SELECT current_setting('autovacuum') = 'on' AND current_setting('track_counts') = 'on' AS automatic`),
    );
    return settings?.automatic ? undefined : new TableUpkeep(db);
  }

  /** A job ended: runs the upkeep in the background once enough have, and long enough ago (a failure is logged; the next threshold tries again). */
  jobEnded(): void {
    if (++this.endedSinceRun < this.threshold || Date.now() - this.lastRunAt < NAPTIME_MS) return;
    this.run().catch((error: unknown) => logError("table upkeep", error));
  }

  /** Runs the upkeep now, unless a run is under way (then resolves when it ends). */
  run(): Promise<void> {
    this.running ??= this.vacuum().finally(() => (this.running = undefined));
    return this.running;
  }

  /** Resolves once no run is under way, whatever its outcome (the queue stops after it). */
  async finished(): Promise<void> {
    await this.running?.catch(() => undefined);
  }

  private async vacuum(): Promise<void> {
    this.endedSinceRun = 0;
    this.lastRunAt = Date.now();
    // Outside any organization's scope: the upkeep belongs to no request.
    await withoutScope(async () => {
      // VACUUM cannot run in a transaction; ANALYZE can, so its sample size is set for it alone.
      await this.db.execute(sql`VACUUM (SKIP_LOCKED) ${CHURNED_TABLES}`);
      await this.db.transaction(async (tx) => {
        await tx.execute(sql`SET LOCAL default_statistics_target = ${sql.raw(String(STATISTICS_TARGET))}`);
        await tx.execute(sql`ANALYZE (SKIP_LOCKED) ${CHURNED_TABLES}`);
      });
      const [jobs] = await queryRows<{ rows: number | string }>(this.db, sql`SELECT greatest(reltuples, 0) AS rows FROM pg_class WHERE oid = 'analysis_jobs'::regclass`);
      this.threshold = BASE_JOBS + TABLE_FRACTION * Number(jobs?.rows ?? 0);
    });
  }
}
