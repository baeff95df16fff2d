/**
 * A call, for a statement's FROM clause, that sets how its transaction
 * commits: on PostgreSQL without waiting for the commit to reach the disk
 * (synchronous_commit off, for that transaction only). A flush cost 0.9 ms on
 * this machine's disk when idle and 3-4 ms under load (pg_test_fsync; a one-row
 * UPDATE: 3.4-4.0 ms synchronous, 0.3-0.5 ms not), on the path of every request.
 *
 * Only for the steps after a job was accepted — its queue entry taken, its
 * claim, its ending — never for the transaction that accepts it, which
 * answers 202 or starts the request's wait only once it is on disk. If
 * PostgreSQL itself crashes, at most its last moments of such commits are
 * lost, always the latest ones, and the job is found where a crash of the app
 * would have left it: its entry waiting, or the job running until its lease
 * runs out, then taken again (never lost, never corrupt).
 *
 * On embedded PGlite (`embedded`) the database runs inside the app's process,
 * so a crash of the app is one of the database: a claim's commit lost with it
 * would lose the attempt it counted, and a job that brought the process down
 * would never run out of retries. There every commit waits.
 */
export function afterAcceptanceCommit(embedded: boolean): string {
  return `set_config('synchronous_commit', '${embedded ? "on" : "off"}', true)`;
}
