import { randomBytes } from "node:crypto";
import { and, eq, sql } from "drizzle-orm";
import PgBoss from "pg-boss";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { closeDb, openDb, type Db } from "@/db/client";
import { newId } from "@/db/ids";
import { takeAnalysisEntry } from "@/db/queries/analysis-jobs";
import { claimAnalysisJob, insertAnalysisJob } from "../support/job-rows";
import { queryRows } from "@/db/queries/rows";
import { deleteDocumentSet, insertDocumentSet } from "@/db/queries/sets";
import { insertSetFile } from "@/db/queries/sets-files";
import { insertStoredFile } from "@/db/queries/sets-storage";
import { analysisJobs, setFiles } from "@/db/schema";
import { withOrganizationScope, withSystemScope } from "@/db/scope";
import { resetEnvForTests } from "@/lib/env";
import { runAnalysisJob } from "@/lib/jobs/run-analysis";
import { clientExecutor } from "@/lib/jobs/sql-executor";
import { createQueueOnce, deleteQueue } from "@/lib/jobs/start-queues";
import { ProcessPool } from "@/lib/readers/pool";
import { seedOrganization, testDatabases, testDatabaseUrl } from "../support/databases";
import { freshPgliteDir } from "../support/pglite-template";
import { statementCounter } from "../support/statement-counter";

/** The role the app takes with DATABASE_APP_ROLE: row-level security binds it, as it binds a worker in production. */
const APP_ROLE = "shipshape_app";
/** A lease long enough for the test. */
const LEASE_SECONDS = 60;
const BYTES = new TextEncoder().encode("%PDF-1.7");

/** A web upload waiting for a worker: its set, its file (`uploaded`), its stored bytes and its job. */
function queueUpload(db: Db, organizationId: string): Promise<{ setId: string; fileId: string; jobId: string }> {
  return withOrganizationScope(organizationId, async () => {
    const set = await insertDocumentSet(db, { id: newId("set"), organizationId, name: "LC 5120" });
    const storageKey = newId("blob");
    await insertStoredFile(db, { organizationId, storageKey, bytes: BYTES });
    const file = await insertSetFile(db, { id: newId("sfl"), organizationId, setId: set.id, fileName: "invoice.pdf", sizeBytes: 8, sha256: "a".repeat(64), format: "pdf", storageKey });
    const job = await insertAnalysisJob(db, { id: newId("ana"), organizationId, setFileId: file.id, storageKey, inputName: "invoice.pdf", inputBytes: 8, sha256: "a".repeat(64) });
    return { setId: set.id, fileId: file.id, jobId: job.id };
  });
}

/** A job's status and its set file's, read in its organization's scope. */
function statesOf(db: Db, organizationId: string, upload: { fileId: string; jobId: string }): Promise<{ job?: string; file?: string; fileError?: string | null }> {
  return withOrganizationScope(organizationId, async () => {
    const [job] = await db.select({ status: analysisJobs.status }).from(analysisJobs).where(eq(analysisJobs.id, upload.jobId));
    const [file] = await db.select({ status: setFiles.status, errorDetail: setFiles.errorDetail }).from(setFiles).where(eq(setFiles.id, upload.fileId));
    return { job: job?.status, file: file?.status, fileError: file?.errorDetail };
  });
}

/**
 * A worker's claim is one statement on either database (it was four on
 * PostgreSQL: BEGIN, the claim lock, the claim, COMMIT; and a fifth for a web
 * upload's set file), run as the app's role in the job's organization scope.
 */
describe.each(testDatabases())("a worker's claim on $name", (database) => {
  let db: Db;
  let pool: ProcessPool;
  const { onQuery, counted } = statementCounter();

  beforeAll(async () => {
    vi.stubEnv("ANALYSIS_IN_PROCESS_WORKER", "false");
    vi.stubEnv("ANALYSIS_ORG_MAX_RUNNING", "1");
    resetEnvForTests();
    // One PGlite per handle, as db/row-level-security.test.ts opens it.
    db = await openDb({ ...(database.name === "pglite" ? { dataDir: freshPgliteDir() } : { url: testDatabaseUrl() }), appRole: APP_ROLE, onQuery });
    // Never started: the attempts below end before a document would be read.
    pool = new ProcessPool({ size: 1 });
  });
  afterAll(async () => {
    pool?.close();
    if (db) await closeDb(db);
    vi.unstubAllEnvs();
    resetEnvForTests();
  });

  const seed = (prefix: string) => withSystemScope("operator", async () => (await seedOrganization(db, { prefix })).organization.id);

  it("takes a web upload's job in one statement that shows its set file analyzing, within its organization's scope only", async () => {
    const [a, b] = [await seed("claim-a"), await seed("claim-b")];
    const upload = await queueUpload(db, a);
    const outsider = await queueUpload(db, b);
    const claim = await counted(() => withOrganizationScope(a, () => claimAnalysisJob(db, { organizationId: a, jobId: upload.jobId, maxRunning: 1, leaseSeconds: LEASE_SECONDS })));
    expect(claim).toMatchObject({ statements: 1, value: { id: upload.jobId, status: "running", attempts: 1, setFileId: upload.fileId, layoutHints: [] } });
    expect(await statesOf(db, a, upload)).toEqual({ job: "running", file: "analyzing", fileError: null });
    // The function takes no wider scope than its caller's: from A's scope, B's job is not there to take.
    expect(await withOrganizationScope(a, () => claimAnalysisJob(db, { organizationId: b, jobId: outsider.jobId, maxRunning: 1, leaseSeconds: LEASE_SECONDS }))).toBeUndefined();
    expect(await statesOf(db, b, outsider)).toEqual({ job: "queued", file: "uploaded", fileError: null });
  });

  it("defers an attempt at the organization's cap, and drops one whose job was deleted with its set, in one statement each", async () => {
    const organizationId = await seed("claim-cap");
    const [running, waiting] = [await queueUpload(db, organizationId), await queueUpload(db, organizationId)];
    const claim = (jobId: string) => claimAnalysisJob(db, { organizationId, jobId, maxRunning: 1, leaseSeconds: LEASE_SECONDS });
    // The claim's outcome is all an attempt needs to end: it writes nothing more.
    const attempt = (jobId: string) => counted(() => withOrganizationScope(organizationId, async () => runAnalysisJob(db, { organizationId, jobId }, await claim(jobId), pool)));
    await withOrganizationScope(organizationId, () => claim(running.jobId));
    // ANALYSIS_ORG_MAX_RUNNING is 1: the organization's one place is taken.
    expect(await attempt(waiting.jobId)).toEqual({ value: "deferred", statements: 1 });
    expect(await statesOf(db, organizationId, waiting)).toEqual({ job: "queued", file: "uploaded", fileError: null });
    await withOrganizationScope(organizationId, () => deleteDocumentSet(db, { organizationId, setId: waiting.setId }));
    expect(await attempt(waiting.jobId)).toEqual({ value: undefined, statements: 1 });
  });

  it("takes the next queue entry and claims its job in one statement, in the job's organization scope whatever the connection's, which it leaves as it was", async () => {
    const [a, b] = [await seed("take-a"), await seed("take-b")];
    const upload = await queueUpload(db, a);
    const boss = new PgBoss({ db: clientExecutor(db), schedule: false, supervise: false });
    await boss.start();
    // A queue of the test's own: no other test's entries, and no worker but this test's take.
    const queue = `take-${randomBytes(6).toString("hex")}`;
    try {
      await createQueueOnce(boss, queue, { name: queue });
      const entryId = await boss.send(queue, { jobId: upload.jobId, organizationId: a });
      // In a transaction in another organization's scope, which must hold after the take: the claim's scope is set for the claim alone.
      const { value, statements } = await counted(() =>
        withOrganizationScope(b, () =>
          db.transaction(async (tx) => ({
            taken: await takeAnalysisEntry(tx, { queue, maxRunning: 1, leaseSeconds: LEASE_SECONDS }),
            scope: (await queryRows<{ organization: string; system: string }>(tx, sql`SELECT current_setting('app.organization_id', true) AS organization, current_setting('app.system_scope', true) AS system`))[0],
          })),
        ),
      );
      expect(value.taken).toMatchObject({ id: entryId, data: { jobId: upload.jobId, organizationId: a }, retryCount: 0, claim: { id: upload.jobId, status: "running", attempts: 1, setFileId: upload.fileId, layoutHints: [] } });
      expect(value.scope).toEqual({ organization: b, system: "" });
      // The take and the scope read, with BEGIN and COMMIT on PostgreSQL (PGlite's transaction sends its own, unlogged).
      expect(statements).toBe(database.name === "pglite" ? 2 : 4);
      expect(await statesOf(db, a, upload)).toEqual({ job: "running", file: "analyzing", fileError: null });
      expect(await takeAnalysisEntry(db, { queue, maxRunning: 1, leaseSeconds: LEASE_SECONDS })).toBeUndefined();
    } finally {
      await queryRows(db, sql`DELETE FROM pgboss.job WHERE name = ${queue}`);
      await deleteQueue(boss, queue);
      await boss.stop({ graceful: false, close: false });
    }
  });
});

/** Two workers of two processes on one PostgreSQL (embedded PGlite serves one process). */
describe("two claims at once for an organization's last running place on postgresql", () => {
  const database = testDatabases().find((candidate) => candidate.name === "postgresql")!;
  let db: Db;
  let other: Db;

  beforeAll(async () => {
    db = await database.open();
    other = await database.open();
  });
  afterAll(async () => {
    if (other) await database.close(other);
    if (db) await database.close(db);
  });

  it("the second waits for the first claim to commit, then counts it and defers its job", { timeout: 60_000 }, async () => {
    const organizationId = (await seedOrganization(db, { prefix: "claim-race" })).organization.id;
    const [first, second] = [await queueUpload(db, organizationId), await queueUpload(db, organizationId)];
    const claim = (handle: Db, jobId: string) => claimAnalysisJob(handle, { organizationId, jobId, maxRunning: 1, leaseSeconds: LEASE_SECONDS });
    let secondClaim: Promise<unknown> | undefined;
    let secondSettled = false;
    // The first claim's transaction stays open (a worker slowed down between its claim and its commit) while the second comes.
    await db.transaction(async (tx) => {
      expect(await claim(tx, first.jobId)).toMatchObject({ id: first.jobId, status: "running" });
      secondClaim = claim(other, second.jobId).finally(() => (secondSettled = true));
      secondClaim.catch(() => undefined);
      // Either the second claim has ended, or it waits for this organization's claim lock.
      await vi.waitFor(
        async () => {
          const [row] = await queryRows<{ n: string }>(
            other,
            sql`SELECT count(*) AS n FROM pg_locks WHERE locktype = 'advisory' AND NOT granted
                AND objid = (hashtext(${organizationId})::bigint & 4294967295)::oid`,
          );
          expect(secondSettled || Number(row?.n) > 0).toBe(true);
        },
        { timeout: 20_000 },
      );
      expect(secondSettled).toBe(false);
    });
    expect(await secondClaim).toBe("deferred");
    const running = await db
      .select({ id: analysisJobs.id })
      .from(analysisJobs)
      .where(and(eq(analysisJobs.organizationId, organizationId), eq(analysisJobs.status, "running")));
    expect(running).toEqual([{ id: first.jobId }]);
    expect(await statesOf(db, organizationId, second)).toEqual({ job: "queued", file: "uploaded", fileError: null });
  });
});
