import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { sql } from "drizzle-orm";
import type { Db } from "@/db/client";
import { queryRows } from "@/db/queries/rows";
import { resetEnvForTests } from "@/lib/env";
import { admitJobs } from "@/lib/jobs/admission";
import { OrganizationBusyError, precheckAdmission, submitAnalyses } from "@/lib/jobs";
import { createTestOrganization, invoicePages, makePdf } from "../support/api-fixtures";
import { testDatabases } from "../support/databases";

/**
 * The early admission check runs for every analyze request, and a flood of
 * refused requests is made of little else: it is one statement, not a
 * transaction (on PGlite every statement runs on the server's one thread).
 * A refusal adds the statement that reads the mean duration for Retry-After.
 */
describe.each(testDatabases())("the early admission check on $name", (database) => {
  let db: Db;
  let statements = 0;
  let counting = false;
  const logged: string[] = [];

  beforeAll(async () => {
    vi.stubEnv("ANALYSIS_IN_PROCESS_WORKER", "false");
    vi.stubEnv("ANALYSIS_ORG_MAX_JOBS", "1");
    resetEnvForTests();
    db = await database.open({
      onQuery: (text) => {
        logged.push(text);
        if (counting) statements++;
      },
    });
  });
  afterAll(async () => {
    if (db) await database.close(db);
    vi.unstubAllEnvs();
    resetEnvForTests();
  });

  async function counted(run: () => Promise<unknown>): Promise<number> {
    statements = 0;
    counting = true;
    try {
      await run().catch((error: unknown) => {
        if (!(error instanceof OrganizationBusyError)) throw error;
      });
      return statements;
    } finally {
      counting = false;
    }
  }

  it("admits in one statement, and refuses in two", { timeout: 60_000 }, async () => {
    const { organizationId } = await createTestOrganization(db);
    expect(await counted(() => precheckAdmission(db, { organizationId }))).toBe(1);
    await submitAnalyses(db, [{ organizationId, name: "invoice.pdf", bytes: await makePdf(invoicePages()), evidence: false }]);
    await expect(precheckAdmission(db, { organizationId })).rejects.toBeInstanceOf(OrganizationBusyError);
    expect(await counted(() => precheckAdmission(db, { organizationId }))).toBe(2);
  });

  it("decides inside the request's transaction in three statements: the lock taken and the scope read and set at once, the count, the scope back", { timeout: 60_000 }, async () => {
    const { organizationId } = await createTestOrganization(db);
    // drizzle logs node-postgres's BEGIN and COMMIT as statements; PGlite's transaction is not logged.
    const transactionStatements = database.name === "postgresql" ? 2 : 0;
    expect(await counted(() => db.transaction((tx) => admitJobs(tx, { organizationId, count: 1, enforce: true })))).toBe(3 + transactionStatements);
  });

  it("holds the admission lock, taken before the count, until the transaction ends", { timeout: 60_000 }, async () => {
    const { organizationId } = await createTestOrganization(db);
    const advisoryLocks = async (handle: Db) =>
      Number((await queryRows<{ n: string }>(handle, sql`SELECT count(*) AS n FROM pg_locks WHERE locktype = 'advisory' AND pid = pg_backend_pid()`))[0]?.n);
    logged.length = 0;
    const held = await db.transaction(async (tx) => {
      await admitJobs(tx, { organizationId, count: 1, enforce: true });
      return advisoryLocks(tx);
    });
    expect(held).toBe(1);
    const lockAt = logged.findIndex((text) => text.includes("pg_advisory_xact_lock"));
    const countAt = logged.findIndex((text) => /count\(\*\)/.test(text));
    expect(lockAt).toBeGreaterThanOrEqual(0);
    expect(countAt).toBeGreaterThan(lockAt);
  });
});
