import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { sql } from "drizzle-orm";
import type { Db } from "@/db/client";
import { queryRows } from "@/db/queries/rows";
import { withOrganizationScope } from "@/db/scope";
import { resetEnvForTests } from "@/lib/env";
import { refusalOf } from "@/lib/jobs/admission";
import { analysisQueue, OrganizationBusyError, precheckAdmission, submitAnalyses } from "@/lib/jobs";
import { createTestOrganization, invoicePages, makePdf } from "../support/api-fixtures";
import { testDatabases } from "../support/databases";
import { acceptTestJob } from "../support/job-rows";
import { statementCounter } from "../support/statement-counter";

/**
 * The early admission check runs for every analyze request, and a flood of
 * refused requests is made of little else: it is one statement, not a
 * transaction (on PGlite every statement runs on the server's one thread).
 * A refusal adds the statement that reads the mean duration for Retry-After.
 * The admission that decides for good is part of the statement that accepts
 * the job: a small file is admitted, stored and queued in one statement.
 */
describe.each(testDatabases())("the early admission check on $name", (database) => {
  let db: Db;
  const counter = statementCounter();

  beforeAll(async () => {
    vi.stubEnv("ANALYSIS_IN_PROCESS_WORKER", "false");
    vi.stubEnv("ANALYSIS_ORG_MAX_JOBS", "1");
    resetEnvForTests();
    db = await database.open({ onQuery: counter.onQuery });
  });
  afterAll(async () => {
    if (db) await database.close(db);
    vi.unstubAllEnvs();
    resetEnvForTests();
  });

  /** Statements of `run`, a refusal (429) included. */
  async function counted(run: () => Promise<unknown>): Promise<number> {
    const refusalAllowed = () =>
      run().catch((error: unknown) => {
        if (!(error instanceof OrganizationBusyError)) throw error;
      });
    return (await counter.counted(refusalAllowed)).statements;
  }

  it("admits in one statement, and refuses in two", { timeout: 60_000 }, async () => {
    const { organizationId } = await createTestOrganization(db);
    expect(await counted(() => precheckAdmission(db, { organizationId }))).toBe(1);
    await submitAnalyses(db, [{ organizationId, name: "invoice.pdf", bytes: await makePdf(invoicePages()), evidence: false }]);
    await expect(precheckAdmission(db, { organizationId })).rejects.toBeInstanceOf(OrganizationBusyError);
    expect(await counted(() => precheckAdmission(db, { organizationId }))).toBe(2);
  });

  it("decides from counts the caller brought (the keyed route's rate-limit statement) in no statement, and refuses in one", { timeout: 60_000 }, async () => {
    const { organizationId } = await createTestOrganization(db);
    const counts = (queued: number) => ({ active: queued, organizationRunning: 0, organizationQueued: queued });
    expect(await counted(() => precheckAdmission(db, { organizationId, counts: counts(0) }))).toBe(0);
    // ANALYSIS_ORG_MAX_JOBS is 1: one queued job fills the organization, whatever the table holds.
    await expect(precheckAdmission(db, { organizationId, counts: counts(1) })).rejects.toBeInstanceOf(OrganizationBusyError);
    expect(await counted(() => precheckAdmission(db, { organizationId, counts: counts(1) }))).toBe(1);
  });

  it("admits, stores and queues a small file in one statement, and refuses in two", { timeout: 60_000 }, async () => {
    await analysisQueue(db);
    const { organizationId } = await createTestOrganization(db);
    const input = { organizationId, name: "invoice.pdf", bytes: await makePdf(invoicePages()), evidence: false };
    expect(await counted(() => submitAnalyses(db, [input]))).toBe(1);
    // ANALYSIS_ORG_MAX_JOBS is 1: the job above fills the organization. The refusal reads the mean duration for Retry-After.
    await expect(submitAnalyses(db, [input])).rejects.toBeInstanceOf(OrganizationBusyError);
    expect(await counted(() => submitAnalyses(db, [input]))).toBe(2);
  });

  it("holds the admission lock until the transaction ends, and leaves the transaction's scope as it was", { timeout: 60_000 }, async () => {
    const queue = await analysisQueue(db);
    const { organizationId } = await createTestOrganization(db);
    const held = await withOrganizationScope(organizationId, () =>
      db.transaction(async (tx) => {
        await tx.execute(sql`SELECT set_config('app.organization_id', ${organizationId}, true), set_config('app.system_scope', '', true)`);
        await acceptTestJob(tx, queue, organizationId);
        return (
          await queryRows<{ locks: string; organization: string; system: string }>(
            tx,
            sql`SELECT (SELECT count(*) FROM pg_locks WHERE locktype = 'advisory' AND pid = pg_backend_pid()) AS locks,
                  current_setting('app.organization_id', true) AS organization, current_setting('app.system_scope', true) AS system`,
          )
        )[0];
      }),
    );
    expect({ ...held, locks: Number(held?.locks) }).toEqual({ locks: 1, organization: organizationId, system: "" });
  });
});

/** Two app instances on one PostgreSQL (embedded PGlite serves one process). */
describe("admission across instances on postgresql", () => {
  const database = testDatabases().find((candidate) => candidate.name === "postgresql")!;
  let db: Db;

  beforeAll(async () => {
    vi.stubEnv("ANALYSIS_IN_PROCESS_WORKER", "false");
    vi.stubEnv("ANALYSIS_ORG_MAX_JOBS", "1");
    resetEnvForTests();
    db = await database.open();
  });
  afterAll(async () => {
    if (db) await database.close(db);
    vi.unstubAllEnvs();
    resetEnvForTests();
  });

  it("counts, after waiting for the lock, the job another instance's admission inserted meanwhile", { timeout: 60_000 }, async () => {
    const { organizationId } = await createTestOrganization(db);
    const other = await database.open();
    try {
      const queue = await analysisQueue(db);
      const accept = (handle: Db) =>
        acceptTestJob(handle, queue, organizationId);
      let second: Promise<unknown> | undefined;
      await db.transaction(async (tx) => {
        await accept(tx);
        // The other instance's admission starts while this one holds the lock, and waits for it.
        second = accept(other).catch(async (error: unknown) => {
          throw await refusalOf(other, error);
        });
        second.catch(() => undefined);
        await vi.waitFor(
          async () => {
            const [row] = await queryRows<{ n: string }>(other, sql`SELECT count(*) AS n FROM pg_locks WHERE locktype = 'advisory' AND NOT granted`);
            expect(Number(row?.n)).toBeGreaterThan(0);
          },
          { timeout: 20_000 },
        );
      });
      // ANALYSIS_ORG_MAX_JOBS is 1: the job committed above fills the organization.
      await expect(second).rejects.toBeInstanceOf(OrganizationBusyError);
    } finally {
      await database.close(other);
    }
  });
});
