import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { sql } from "drizzle-orm";
import type { Db } from "@/db/client";
import { newId } from "@/db/ids";
import { acceptAnalysisJob } from "@/db/queries/job-acceptance";
import { queryRows } from "@/db/queries/rows";
import { analysisQueue, type AnalysisQueue } from "@/lib/jobs";
import { admissionRule } from "@/lib/jobs/admission";
import { seedOrganization, testDatabases } from "../support/databases";

/**
 * The accepting statement writes its job's queue entry into pg-boss's table
 * itself (insertEntrySql): the entry must be the one pg-boss's own send writes
 * for the same queue, with every setting the queue gives it (dead letter,
 * expiry, retention, retries), so that pg-boss fetches, retries, expires and
 * archives it as its own. This fails when an upgrade of pg-boss changes what
 * send writes.
 */
describe.each(testDatabases())("a job's queue entry on $name", (database) => {
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
    const job = await acceptAnalysisJob(
      db,
      { id: newId("ana"), organizationId, storageKey: newId("blob"), inputName: "invoice.pdf", inputBytes: 8, sha256: "a".repeat(64), queueName: queue.name },
      admissionRule({ jobs: 1, enforce: true }),
      queue.newEntryId(),
      { bytes: new TextEncoder().encode("%PDF-1.7") },
    );
    const ours = await entryOf(job.id);
    // The same job's entry as pg-boss writes it, with the priority admission gave ours.
    await db.execute(sql`DELETE FROM pgboss.job WHERE name = ${queue.name} AND data->>'jobId' = ${job.id}`);
    await db.transaction((tx) => queue.send(tx, { jobId: job.id, organizationId }, Number(ours?.priority)));
    const theirs = await entryOf(job.id);
    expect(ours).toBeDefined();
    expect(ours).toEqual(theirs);
    // The analysis queue's own settings, not pg-boss's defaults: its failures go to its dead letters.
    expect(ours?.dead_letter).toBe(`${queue.name}-failed`);
  });
});
