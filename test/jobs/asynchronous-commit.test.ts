import { sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import type { Db } from "@/db/client";
import { newId } from "@/db/ids";
import { completeAnalysisJob, takeAnalysisEntry } from "@/db/queries/analysis-jobs";
import { claimAnalysisJob, insertAnalysisJob } from "../support/job-rows";
import { queryRows } from "@/db/queries/rows";
import { insertStoredFile } from "@/db/queries/sets-storage";
import { withOrganizationScope } from "@/db/scope";
import { resetEnvForTests } from "@/lib/env";
import { analysisQueue } from "@/lib/jobs/analysis-queue";
import { seedOrganization, testDatabases } from "../support/databases";

const BYTES = new TextEncoder().encode("%PDF-1.7");
const READ = { pageCount: 1, result: [], pageText: [], durationMs: 1 };

async function commitMode(db: Db): Promise<string | undefined> {
  return (await queryRows<{ mode: string }>(db, sql`SELECT current_setting('synchronous_commit') AS mode`))[0]?.mode;
}

/**
 * On PostgreSQL the steps after a job was accepted (its queue entry taken, its
 * claim, its ending) commit without waiting for the disk, their transaction
 * only; the accepting transaction, and whatever a connection runs next, still
 * waits. On embedded PGlite, a crash of the app is one of the database: every
 * commit waits.
 */
describe.each(testDatabases())("commits after acceptance on $name", (database) => {
  let db: Db;
  let organizationId: string;
  const stepMode = database.name === "postgresql" ? "off" : "on";

  /** An API input's job, accepted: its stored bytes and its row. */
  const acceptJob = () =>
    withOrganizationScope(organizationId, async () => {
      const storageKey = newId("blob");
      await insertStoredFile(db, { organizationId, storageKey, bytes: BYTES });
      return insertAnalysisJob(db, { id: newId("ana"), organizationId, storageKey, inputName: "invoice.pdf", inputBytes: BYTES.length, sha256: "a".repeat(64) });
    });
  const claim = (handle: Db, jobId: string) => claimAnalysisJob(handle, { organizationId, jobId, maxRunning: 8, leaseSeconds: 60 });

  beforeAll(async () => {
    vi.stubEnv("ANALYSIS_IN_PROCESS_WORKER", "false");
    resetEnvForTests();
    db = await database.open();
    organizationId = (await seedOrganization(db, { prefix: "async-commit" })).organization.id;
  });
  afterAll(async () => {
    if (db) await database.close(db);
    vi.unstubAllEnvs();
    resetEnvForTests();
  });

  it("takes a queue entry and claims its job in a transaction that waits for the disk on PGlite only", async () => {
    const queue = await analysisQueue(db);
    const job = await acceptJob();
    await db.transaction((tx) => queue.send({ jobId: job.id, organizationId }, 0, { tx }));
    const { entry, mode } = await db.transaction(async (tx) => ({ entry: await takeAnalysisEntry(tx, { queue: queue.name, maxRunning: 8, leaseSeconds: 60 }), mode: await commitMode(tx) }));
    expect(entry).toMatchObject({ data: { jobId: job.id, organizationId }, claim: { id: job.id, status: "running" } });
    expect(mode).toBe(stepMode);
  });

  it("claims and ends a job in transactions that wait for the disk on PGlite only, and the setting ends with them", async () => {
    const job = await acceptJob();
    expect(await commitMode(db)).toBe("on");
    const claimed = await withOrganizationScope(organizationId, () => db.transaction(async (tx) => ({ claim: await claim(tx, job.id), mode: await commitMode(tx) })));
    expect(claimed.claim).toMatchObject({ id: job.id, status: "running" });
    expect(claimed.mode).toBe(stepMode);
    const ended = await withOrganizationScope(organizationId, () =>
      db.transaction(async (tx) => ({ row: await completeAnalysisJob(tx, { organizationId, jobId: job.id }, READ), mode: await commitMode(tx) })),
    );
    expect(ended).toEqual({ row: { id: job.id }, mode: stepMode });
    // A claim on its own is its own transaction: the connection's next statement (the pool hands back the same idle one) waits for the disk again.
    const next = await acceptJob();
    await withOrganizationScope(organizationId, () => claim(db, next.id));
    expect(await withOrganizationScope(organizationId, () => commitMode(db))).toBe("on");
  });
});
