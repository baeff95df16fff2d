import { sql } from "drizzle-orm";
import type { Db } from "../client";
import { withScopeKept } from "../scope";
import { jobCountsOf, jobCountsSource, type JobCounts, type JobCountsQuery } from "./job-counts";
import { queryRows } from "./rows";

const MICROS_PER_SECOND = 1_000_000;

/**
 * One GCRA step in one statement on the database clock (the policy arithmetic
 * lives in lib/api/rate-limit): pushes the bucket's theoretical arrival time
 * (TAT) forward by `intervalMicros` unless that puts it more than
 * `toleranceMicros` ahead of now. Buckets are keyed by name, not owned by an
 * organization (sign-in and key-miss buckets exist before anyone is known),
 * so a connection in any scope serves them (withScopeKept).
 * Returns whether the step was admitted and how far TAT is ahead of now
 * afterwards (null when a refusing bucket's row is not yet visible).
 * `jobCounts`: the same statement also counts the organization's unfinished
 * jobs (admission_counts, which enters its own scope), for a request that
 * would queue one: its early admission check then costs no round trip.
 */
export async function admitToRateLimitBucket(
  db: Db,
  params: { bucket: string; intervalMicros: number; toleranceMicros: number; jobCounts?: JobCountsQuery },
): Promise<{ allowed: boolean; aheadMicros: number | null; jobCounts?: JobCounts }> {
  const { bucket } = params;
  const interval = sql`(${params.intervalMicros}::bigint * interval '1 microsecond')`;
  const tolerance = sql`(${params.toleranceMicros}::bigint * interval '1 microsecond')`;
  const counts = params.jobCounts ? sql`, counts.active, counts.running, counts.queued FROM ${jobCountsSource(params.jobCounts)} AS counts` : sql``;
  // statement_timestamp(), not now(): correct even when called inside a longer transaction.
  // On refusal the upsert returns nothing, so the current TAT is read from the statement's snapshot.
  type Row = { allowed: boolean; ahead_micros: number | null; active?: string; running?: string; queued?: string };
  const [row] = await withScopeKept("rate limits", () => queryRows<Row>(
    db,
    sql`
      WITH admitted AS (
        INSERT INTO rate_limits AS r (bucket, tat) VALUES (${bucket}, statement_timestamp() + ${interval})
        ON CONFLICT (bucket) DO UPDATE
          SET tat = GREATEST(r.tat, statement_timestamp()) + ${interval}
          WHERE GREATEST(r.tat, statement_timestamp()) + ${interval} - statement_timestamp() <= ${tolerance}
        RETURNING tat
      )
      SELECT
        EXISTS (SELECT 1 FROM admitted) AS allowed,
        (EXTRACT(EPOCH FROM (
          COALESCE((SELECT tat FROM admitted), (SELECT tat FROM rate_limits WHERE bucket = ${bucket}))
          - statement_timestamp()
        )) * ${MICROS_PER_SECOND})::float8 AS ahead_micros${counts}`,
  ));
  if (!row) throw new Error("rate limit statement returned no row");
  return { allowed: row.allowed, aheadMicros: row.ahead_micros, ...(params.jobCounts && { jobCounts: jobCountsOf(row as Required<Row>) }) };
}

/** How far the bucket's TAT is ahead of the database clock, without spending; null when the bucket has no row. */
export async function rateLimitBucketAheadMicros(db: Db, params: { bucket: string }): Promise<number | null> {
  const [row] = await withScopeKept("rate limits", () => queryRows<{ ahead_micros: number }>(
    db,
    sql`SELECT (EXTRACT(EPOCH FROM (tat - statement_timestamp())) * ${MICROS_PER_SECOND})::float8 AS ahead_micros
        FROM rate_limits WHERE bucket = ${params.bucket}`,
  ));
  return row ? row.ahead_micros : null;
}
