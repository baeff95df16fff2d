import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import type { Db } from "@/db/client";
import { readStoredFile } from "@/db/queries/sets-storage";
import { analysisJobs, storedFiles } from "@/db/schema";
import { withOrganizationScope } from "@/db/scope";
import { analyzeRequest as analyzeRoute } from "@/lib/api/analyze";
import { withApiKey } from "@/lib/api/handler";
import { resetEnvForTests } from "@/lib/env";
import { analyzeForm, analyzeRequest, createTestOrganization, invoicePages, makePdf } from "../support/api-fixtures";
import { testDatabases } from "../support/databases";

/**
 * What the analyze route's own intake costs, counted through the real keyed
 * route: a file that fits in one stored chunk is admitted, written and queued
 * by the statement that inserts its job (no statement of its own, no
 * transaction), and the early admission check rides on the rate limit's
 * statement.
 */
describe.each(testDatabases())("a one-chunk analyze request's statements on $name", (database) => {
  let db: Db;
  const statements: string[] = [];
  let counting = false;

  beforeAll(async () => {
    vi.stubEnv("ANALYSIS_IN_PROCESS_WORKER", "false");
    resetEnvForTests();
    db = await database.open({ onQuery: (query) => void (counting && statements.push(query)) });
  });
  afterAll(async () => {
    if (db) await database.close(db);
    vi.unstubAllEnvs();
    resetEnvForTests();
  });

  it("stores the file in the job's own statement and prechecks admission with the rate limit", { timeout: 60_000 }, async () => {
    const org = await createTestOrganization(db);
    const bytes = await makePdf(invoicePages());
    const handle = withApiKey(analyzeRoute, { openDb: async () => db });
    statements.length = 0;
    counting = true;
    const response = await handle(analyzeRequest(analyzeForm({ file: { bytes, type: "application/pdf" } }), { key: org.production.key, headers: { prefer: "respond-async" } }));
    counting = false;
    expect(response.status).toBe(202);

    const touching = (pattern: RegExp) => statements.filter((text) => pattern.test(text));
    // The file's record and its chunk go in with the job, its admission and its queue entry: one statement.
    const storage = touching(/stored_files|document_chunks/);
    expect(storage).toHaveLength(1);
    expect(storage[0]).toMatch(/insert into "analysis_jobs"/i);
    expect(storage[0]).toMatch(/admit_analysis_jobs/);
    expect(storage[0]).toMatch(/insert into pgboss\.job/i);
    expect(touching(/pgboss\.job/)).toHaveLength(1);
    expect(touching(/^\s*(begin|commit)\b/i)).toHaveLength(0);
    // The rate limit's statement brings the early check's counts.
    expect(touching(/admission_counts/)).toHaveLength(1);
    expect(touching(/admission_counts/)[0]).toMatch(/rate_limits/);

    // Accepted: kept as a received file, byte for byte, under its job.
    const jobId = response.headers.get("x-analysis-id")!;
    const [job] = await db.select().from(analysisJobs).where(eq(analysisJobs.id, jobId));
    const [file] = await db.select().from(storedFiles).where(eq(storedFiles.storageKey, job!.storageKey));
    expect(file).toMatchObject({ organizationId: org.organizationId, sizeBytes: bytes.length, sha256: job!.sha256 });
    expect(file!.receivedAt).not.toBeNull();
    expect(await withOrganizationScope(org.organizationId, () => readStoredFile(db, { organizationId: org.organizationId, storageKey: job!.storageKey }))).toEqual(bytes);
  });
});
