import { randomBytes } from "node:crypto";
import { eq, sql } from "drizzle-orm";
import PgBoss from "pg-boss";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Db } from "@/db/client";
import { newId } from "@/db/ids";
import { insertAnalysisJob } from "../support/job-rows";
import { takeAnalysisEntry } from "@/db/queries/analysis-jobs";
import { queryRows } from "@/db/queries/rows";
import { insertStoredFile } from "@/db/queries/sets-storage";
import { analysisJobs } from "@/db/schema";
import type { QueuedJob } from "@/lib/jobs/analysis-queue";
import { clientExecutor } from "@/lib/jobs/sql-executor";
import { createQueueOnce } from "@/lib/jobs/start-queues";
import { seedOrganization, testDatabases } from "../support/databases";

/**
 * A worker's take (migration 0022's take_analysis_entry, whose fetch is
 * migration 0020's fetch_analysis_entry) never hands out an
 * entry whose organization already runs as many jobs as it may: with pg-boss's
 * fetch such an entry was taken, its claim deferred, and the entry queued again
 * a second later, so one organization's requests beyond its running cap each
 * waited out that second.
 */
describe.each(testDatabases())("fetching analysis entries on $name", (database) => {
  let db: Db;
  let boss: PgBoss;
  let queue: string;
  let a: string;
  let b: string;

  beforeAll(async () => {
    db = await database.open();
    a = (await seedOrganization(db, { prefix: "capped-a" })).organization.id;
    b = (await seedOrganization(db, { prefix: "capped-b" })).organization.id;
    boss = new PgBoss({ db: clientExecutor(db), schedule: false, supervise: false });
    await boss.start();
    // A queue of the test's own: no other test's entries, no worker but the test's fetches.
    queue = `capped-${randomBytes(6).toString("hex")}`;
    await createQueueOnce(boss, queue, { name: queue, retryLimit: 2, retryDelay: 0 });
  });
  afterAll(async () => {
    await boss?.stop({ graceful: false, close: false });
    if (db) await database.close(db);
  });

  // The entries name no job of the database: each is taken, and its claim finds nothing to take.
  const fetch = (maxRunning: number) => takeAnalysisEntry<QueuedJob>(db, { queue, maxRunning, leaseSeconds: 60 });

  /** A job of `organizationId` in the test's queue, running under a live lease (or one that ran out). */
  async function runningJob(organizationId: string, lease: "live" | "expired" = "live"): Promise<string> {
    const storageKey = newId("blob");
    await insertStoredFile(db, { organizationId, storageKey, bytes: new TextEncoder().encode("%PDF-1.7") });
    const row = await insertAnalysisJob(db, { id: newId("ana"), organizationId, storageKey, inputName: "invoice.pdf", inputBytes: 8, sha256: "a".repeat(64), queueName: queue });
    const expires = lease === "live" ? sql`now() + interval '1 minute'` : sql`now() - interval '1 second'`;
    await db.update(analysisJobs).set({ status: "running", leaseExpiresAt: expires }).where(eq(analysisJobs.id, row.id));
    return row.id;
  }

  async function entry(organizationId: string, priority: number): Promise<string> {
    return (await boss.send(queue, { jobId: newId("ana"), organizationId }, { priority }))!;
  }

  async function stateOf(id: string): Promise<{ state: string; started: boolean } | undefined> {
    const [row] = await queryRows<{ state: string; started: boolean }>(db, sql`SELECT state, started_on IS NOT NULL AS started FROM pgboss.job WHERE name = ${queue} AND id = ${id}::uuid`);
    return row;
  }

  it("skips an organization running as many jobs as it may, whatever its entries' priority, and hands them out once it runs fewer", { timeout: 60_000 }, async () => {
    const running = await runningJob(a);
    const aEntry = await entry(a, 5);
    const bEntry = await entry(b, 0);
    // pg-boss's order alone would give A's entry (higher priority) first.
    expect(await fetch(1)).toMatchObject({ id: bEntry, data: { organizationId: b }, retryCount: 0 });
    expect(await fetch(1)).toBeUndefined();
    expect(await stateOf(aEntry)).toEqual({ state: "created", started: false });
    // A second running place, or A's job ending, lets its entry go.
    expect(await fetch(2)).toMatchObject({ id: aEntry, data: { organizationId: a } });
    await db.update(analysisJobs).set({ status: "done" }).where(eq(analysisJobs.id, running));
  });

  it("does not count a running job whose lease ran out (its worker died), nor a job that ended", { timeout: 60_000 }, async () => {
    const dead = await runningJob(a, "expired");
    const aEntry = await entry(a, 0);
    expect(await fetch(1)).toMatchObject({ id: aEntry });
    await db.update(analysisJobs).set({ status: "done" }).where(eq(analysisJobs.id, dead));
  });

  it("takes an entry as pg-boss's fetch does: active and started, its retry counted after a failure", { timeout: 60_000 }, async () => {
    const id = await entry(b, 0);
    expect(await fetch(1)).toMatchObject({ id, retryCount: 0 });
    expect(await stateOf(id)).toEqual({ state: "active", started: true });
    await boss.fail(queue, id, { message: "the worker's database went away" });
    expect(await fetch(1)).toMatchObject({ id, retryCount: 1 });
  });

  it("runs the request's PL/pgSQL queue functions on generic plans, made once per connection rather than at every call (migration 0023)", async () => {
    const rows = await queryRows<{ name: string; config: string[] | null }>(
      db,
      sql`SELECT proname AS name, proconfig AS config FROM pg_proc
          WHERE proname IN ('fetch_analysis_entry', 'claim_analysis_job', 'admit_analysis_jobs') ORDER BY proname`,
    );
    expect(rows.map((row) => row.name)).toEqual(["admit_analysis_jobs", "claim_analysis_job", "fetch_analysis_entry"]);
    for (const row of rows) expect(row.config ?? []).toContain("plan_cache_mode=force_generic_plan");
  });
});
