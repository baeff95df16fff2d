import { randomBytes } from "node:crypto";
import { eq, sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Db } from "@/db/client";
import { newId } from "@/db/ids";
import { completeAnalysisJob, listLeasedJobs, settleAnalysisJob } from "@/db/queries/analysis-jobs";
import { claimAnalysisJob, insertAnalysisJob } from "../support/job-rows";
import { countActiveJobs } from "@/db/queries/job-counts";
import { deleteLearnedLayout, insertLearnedLayout } from "@/db/queries/learned-layouts";
import type { QueueEntry } from "@/db/queries/queue-entries";
import { queryRows } from "@/db/queries/rows";
import { insertStoredFile, readStoredFile } from "@/db/queries/sets-storage";
import { analyses, analysisJobs } from "@/db/schema";
import { analysisQueue } from "@/lib/jobs";
import { seedOrganization, testDatabases } from "../support/databases";
import { statementCounter } from "../support/statement-counter";

/** A lease long enough for the test; one that ran out is set in the past by hand. */
const LEASE_SECONDS = 60;

const READ = { pageCount: 1, result: [{ split: { document_type: "Commercial Invoice", pages: [1] } }], pageText: [{ number: 1, text: "INVOICE", ocr: false }], durationMs: 42 };

describe.each(testDatabases())("ending and claiming a job in few statements on $name", (database) => {
  let db: Db;
  let organizationId: string;
  const { onQuery, counted } = statementCounter();

  beforeAll(async () => {
    db = await database.open({ onQuery });
    organizationId = (await seedOrganization(db, { prefix: "complete" })).organization.id;
  });

  afterAll(async () => {
    await database.close(db);
  });

  async function queueJob(queue: { organizationId: string; queueName?: string } = { organizationId }): Promise<{ id: string; storageKey: string }> {
    const { organizationId, queueName } = queue;
    const storageKey = newId("blob");
    await insertStoredFile(db, { organizationId, storageKey, bytes: new TextEncoder().encode("%PDF-1.7") });
    const row = await insertAnalysisJob(db, { id: newId("ana"), organizationId, storageKey, inputName: "invoice.pdf", inputBytes: 8, sha256: "a".repeat(64), queueName });
    return { id: row.id, storageKey };
  }

  it("ends an API job in one statement: done, its analysis recorded under its id, its stored bytes dropped", async () => {
    const job = await queueJob();
    const { value, statements } = await counted(() => completeAnalysisJob(db, { organizationId, jobId: job.id }, READ));
    expect(value).toEqual({ id: job.id });
    expect(statements).toBe(1);
    const [row] = await db.select().from(analysisJobs).where(eq(analysisJobs.id, job.id));
    expect(row).toMatchObject({ status: "done", errorCode: null });
    expect(row?.finishedAt).toBeInstanceOf(Date);
    const [analysis] = await db.select().from(analyses).where(eq(analyses.id, job.id));
    expect(analysis).toMatchObject({ organizationId, inputName: "invoice.pdf", inputBytes: 8, pageCount: 1, result: READ.result, pageText: READ.pageText, durationMs: 42 });
    expect(await readStoredFile(db, { organizationId, storageKey: job.storageKey })).toBeUndefined();
  });

  it("writes nothing for a job that has already ended, or belongs to another organization", async () => {
    const job = await queueJob();
    await completeAnalysisJob(db, { organizationId, jobId: job.id }, READ);
    expect(await completeAnalysisJob(db, { organizationId, jobId: job.id }, { ...READ, durationMs: 7 })).toBeUndefined();
    const [analysis] = await db.select({ durationMs: analyses.durationMs }).from(analyses).where(eq(analyses.id, job.id));
    expect(analysis?.durationMs).toBe(42);
    const other = await queueJob();
    const outsider = (await seedOrganization(db, { prefix: "complete-other" })).organization.id;
    expect(await completeAnalysisJob(db, { organizationId: outsider, jobId: other.id }, READ)).toBeUndefined();
    expect(await readStoredFile(db, { organizationId, storageKey: other.storageKey })).toBeDefined();
  });

  /** The job's queue entry, as a worker's fetch leaves it (`active`), or still waiting. */
  async function entryOf(jobId: string, taken = true): Promise<QueueEntry> {
    const queue = await analysisQueue(db);
    await db.transaction((tx) => queue.send({ jobId, organizationId }, 0, { tx }));
    const state = taken ? "active" : "created";
    const [row] = await queryRows<{ id: string }>(
      db,
      sql`UPDATE pgboss.job SET state = ${state}, started_on = now() WHERE name = ${queue.name} AND data->>'jobId' = ${jobId} RETURNING id`,
    );
    return { queue: queue.name, id: row!.id };
  }

  async function entryState(entry: QueueEntry): Promise<string | undefined> {
    const [row] = await queryRows<{ state: string }>(db, sql`SELECT state FROM pgboss.job WHERE name = ${entry.queue} AND id = ${entry.id}::uuid`);
    return row?.state;
  }

  it("ends a job and completes its queue entry in the same one statement, which tells whether another entry waits", async () => {
    const job = await queueJob();
    const entry = await entryOf(job.id);
    const alone = await counted(() => completeAnalysisJob(db, { organizationId, jobId: job.id }, READ, entry));
    expect(alone).toEqual({ value: { id: job.id, waiting: false }, statements: 1 });
    expect(await entryState(entry)).toBe("completed");

    const next = await queueJob();
    const nextEntry = await entryOf(next.id, false);
    const running = await queueJob();
    const runningEntry = await entryOf(running.id);
    expect(await completeAnalysisJob(db, { organizationId, jobId: running.id }, READ, runningEntry)).toEqual({ id: running.id, waiting: true });
    expect([await entryState(runningEntry), await entryState(nextEntry)]).toEqual(["completed", "created"]);
    await completeAnalysisJob(db, { organizationId, jobId: next.id }, READ);
    await db.execute(sql`DELETE FROM pgboss.job WHERE name = ${nextEntry.queue} AND id = ${nextEntry.id}::uuid`);
  });

  it("completes the entry of a job that had already ended, and leaves an entry handed back meanwhile as it is", async () => {
    const ended = await queueJob();
    const entry = await entryOf(ended.id);
    await completeAnalysisJob(db, { organizationId, jobId: ended.id }, READ);
    expect(await completeAnalysisJob(db, { organizationId, jobId: ended.id }, READ, entry)).toBeUndefined();
    expect(await entryState(entry)).toBe("completed");

    const handedBack = await queueJob();
    const retried = await entryOf(handedBack.id);
    await db.execute(sql`UPDATE pgboss.job SET state = 'retry' WHERE name = ${retried.queue} AND id = ${retried.id}::uuid`);
    expect(await completeAnalysisJob(db, { organizationId, jobId: handedBack.id }, READ, retried)).toMatchObject({ id: handedBack.id });
    expect(await entryState(retried)).toBe("retry");
  });

  it("fails a job and completes its queue entry in the same one statement, whether the job ended now or before", async () => {
    const job = await queueJob();
    const entry = await entryOf(job.id);
    const failed = await counted(() => settleAnalysisJob(db, { organizationId, jobId: job.id }, { status: "failed", errorCode: "unreadable", errorDetail: "no text" }, entry));
    expect(failed.statements).toBe(1);
    expect(failed.value).toMatchObject({ id: job.id, status: "failed", errorCode: "unreadable" });
    expect(await entryState(entry)).toBe("completed");

    const ended = await queueJob();
    const endedEntry = await entryOf(ended.id);
    await completeAnalysisJob(db, { organizationId, jobId: ended.id }, READ);
    expect(await settleAnalysisJob(db, { organizationId, jobId: ended.id }, { status: "failed", errorCode: "internal" }, endedEntry)).toBeUndefined();
    expect(await entryState(endedEntry)).toBe("completed");
  });

  it("claims in one statement while the organization has room, defers a job at its cap, and takes no ended job", async () => {
    const first = await queueJob();
    const second = await queueJob();
    const claim = await counted(() => claimAnalysisJob(db, { organizationId, jobId: first.id, maxRunning: 1, leaseSeconds: LEASE_SECONDS }));
    expect(claim.statements).toBe(1);
    expect(claim.value).toMatchObject({ id: first.id, status: "running", attempts: 1 });
    // The organization runs one job, its cap: the second waits.
    expect(await claimAnalysisJob(db, { organizationId, jobId: second.id, maxRunning: 1, leaseSeconds: LEASE_SECONDS })).toBe("deferred");
    // A retried attempt of the running job does not count itself.
    expect(await claimAnalysisJob(db, { organizationId, jobId: first.id, maxRunning: 1, leaseSeconds: LEASE_SECONDS })).toMatchObject({ id: first.id, attempts: 2 });
    await completeAnalysisJob(db, { organizationId, jobId: first.id }, READ);
    expect(await claimAnalysisJob(db, { organizationId, jobId: first.id, maxRunning: 1, leaseSeconds: LEASE_SECONDS })).toBeUndefined();
    expect(await claimAnalysisJob(db, { organizationId, jobId: second.id, maxRunning: 1, leaseSeconds: LEASE_SECONDS })).toMatchObject({ id: second.id, status: "running" });
  });

  it("stops counting a running job whose lease ran out (its worker died), at claim and at admission", async () => {
    // An organization and a queue of this test's own: admission counts only that queue's jobs.
    const organizationId = (await seedOrganization(db, { prefix: "lease" })).organization.id;
    const queueName = `lease-${randomBytes(6).toString("hex")}`;
    const dead = await queueJob({ organizationId, queueName });
    const waiting = await queueJob({ organizationId, queueName });
    expect(await claimAnalysisJob(db, { organizationId, jobId: dead.id, maxRunning: 1, leaseSeconds: LEASE_SECONDS })).toMatchObject({ status: "running" });
    expect(await countActiveJobs(db, { organizationId, queueName })).toEqual({ active: 2, organizationRunning: 1, organizationQueued: 1 });
    expect(await claimAnalysisJob(db, { organizationId, jobId: waiting.id, maxRunning: 1, leaseSeconds: LEASE_SECONDS })).toBe("deferred");
    expect(await listLeasedJobs(db, { organizationId, jobIds: [dead.id, waiting.id] })).toEqual([dead.id]);

    // Its worker stopped renewing the lease.
    await db.update(analysisJobs).set({ leaseExpiresAt: sql`now() - interval '1 second'` }).where(eq(analysisJobs.id, dead.id));
    expect(await countActiveJobs(db, { organizationId, queueName })).toEqual({ active: 1, organizationRunning: 0, organizationQueued: 1 });
    expect(await listLeasedJobs(db, { organizationId, jobIds: [dead.id] })).toEqual([]);
    expect(await claimAnalysisJob(db, { organizationId, jobId: waiting.id, maxRunning: 1, leaseSeconds: LEASE_SECONDS })).toMatchObject({ status: "running" });
    // Another queue's jobs are not counted.
    expect(await countActiveJobs(db, { organizationId, queueName: `${queueName}-other` })).toEqual({ active: 0, organizationRunning: 0, organizationQueued: 0 });
  });

  it("brings the organization's learned layouts with the claim, as they are at that moment", async () => {
    const place = { page: 1, box: [0.6, 0.1, 0.8, 0.12] as [number, number, number, number], lines: 1 };
    const source = { setId: "set_1", setName: "LC 5120", fileId: "file_1", fileName: "invoice.pdf", pages: [1] };
    const layout = await insertLearnedLayout(db, {
      id: newId("lay"),
      organizationId,
      documentType: "commercial_invoice",
      issuer: "ACME TRADING",
      fingerprintId: "fp1",
      fingerprint: [{ page: 1, text: "Invoice No.", x: 0.5, y: 0.1 }],
      fields: { invoice_number: { place, source, taughtBy: null, taughtAt: "2026-11-26T12:00:00Z" } },
    });
    const outsider = (await seedOrganization(db, { prefix: "complete-layouts" })).organization.id;
    await insertLearnedLayout(db, { id: newId("lay"), organizationId: outsider, documentType: "bill_of_lading", issuer: "", fingerprintId: "fp2", fingerprint: [], fields: {} });

    const taught = await queueJob();
    const claim = await counted(() => claimAnalysisJob(db, { organizationId, jobId: taught.id, maxRunning: 10, leaseSeconds: LEASE_SECONDS }));
    expect(claim.statements).toBe(1);
    expect(claim.value).toMatchObject({
      id: taught.id,
      layoutHints: [
        {
          id: layout.id,
          documentType: "commercial_invoice",
          issuer: "ACME TRADING",
          fingerprint: [{ page: 1, text: "Invoice No.", x: 0.5, y: 0.1 }],
          fields: { invoice_number: { ...place, source: "invoice.pdf p. 1 in set LC 5120" } },
        },
      ],
    });
    expect((claim.value as { layoutHints: unknown[] }).layoutHints).toHaveLength(1);

    // Forgotten: the next job claimed reads without it.
    await deleteLearnedLayout(db, { organizationId, id: layout.id });
    const after = await queueJob();
    expect(await claimAnalysisJob(db, { organizationId, jobId: after.id, maxRunning: 10, leaseSeconds: LEASE_SECONDS })).toMatchObject({ id: after.id, layoutHints: [] });
  });
});
