import type PgBoss from "pg-boss";
import { logError } from "@/lib/log";

/**
 * The tables every job changes: its row and its queue entry (inserted, then
 * updated as they are taken and ended), its stored bytes (inserted, then
 * deleted once read), the rate limit's buckets (updated per request).
 * `analyses` only grows and is read by key: it needs neither.
 */
const CHURNED_TABLES = ["analysis_jobs", "pgboss.job", "stored_files", "document_chunks", "rate_limits"];
/** Jobs ended before the tables are kept up again: autovacuum's analyze threshold, 50 rows and a tenth of the table. */
const BASE_JOBS = 50;
const TABLE_FRACTION = 0.1;

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
 * 50 plus a tenth of the jobs table, and once when the worker starts. One run
 * at a time; SKIP_LOCKED, so processes sharing a PostgreSQL never wait on each
 * other's. A table this role does not own is skipped with PostgreSQL's warning.
 */
export class TableUpkeep {
  private endedSinceRun = 0;
  private threshold = BASE_JOBS;
  private running: Promise<void> | undefined;

  private constructor(private readonly executor: PgBoss.Db) {}

  /** The upkeep for this database, or undefined when autovacuum does it already. */
  static async forDatabase(executor: PgBoss.Db, embedded: boolean): Promise<TableUpkeep | undefined> {
    if (embedded) return new TableUpkeep(executor);
    const { rows } = await executor.executeSql("SELECT current_setting('autovacuum') = 'on' AND current_setting('track_counts') = 'on' AS automatic", []);
    return (rows[0] as { automatic: boolean }).automatic ? undefined : new TableUpkeep(executor);
  }

  /** A job ended: runs the upkeep once enough have (a failure is logged; the next threshold tries again). */
  jobEnded(): void {
    if (++this.endedSinceRun >= this.threshold) this.runLogged();
  }

  /** Runs the upkeep in the background, a failure logged (the queue's start). */
  runLogged(): void {
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
    await this.executor.executeSql(`VACUUM (ANALYZE, SKIP_LOCKED) ${CHURNED_TABLES.join(", ")}`, []);
    const { rows } = await this.executor.executeSql("SELECT greatest(reltuples, 0) AS rows FROM pg_class WHERE oid = 'analysis_jobs'::regclass", []);
    this.threshold = BASE_JOBS + TABLE_FRACTION * Number((rows[0] as { rows: number | string }).rows);
  }
}
