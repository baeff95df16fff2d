import { eq, like, sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Db } from "@/db/client";
import { newId } from "@/db/ids";
import { queryRows } from "@/db/queries/rows";
import { deleteWarmUpOrganization, WARM_UP_SLUG_PREFIX } from "@/db/queries/warm-up-organizations";
import { apiKeys, organizations } from "@/db/schema";
import { withSystemScope } from "@/db/scope";
import { WARM_UP_REQUESTS, warmUpAnalyzeRoute } from "@/lib/api/warm-up";
import { createApiKey, OPERATOR } from "@/lib/services";
import { testDatabases, testDatabaseUrl } from "../support/databases";
import { startServerProcess, type ServerProcess } from "../support/server-process";

/** Rows of every table an analyze request writes, and the queue's entries. */
async function rowCounts(db: Db): Promise<Record<string, number>> {
  const tables = ["organizations", "api_keys", "audit_events", "rate_limits", "analysis_jobs", "analyses", "stored_files", "document_chunks", "pgboss.job"];
  const counts: Record<string, number> = {};
  for (const table of tables) {
    const [row] = await queryRows<{ n: string }>(db, sql.raw(`SELECT count(*) AS n FROM ${table}`));
    counts[table] = Number(row?.n);
  }
  return counts;
}

describe.each(testDatabases())("the start-up warm-up on $name", (database) => {
  let db: Db;
  const statements: string[] = [];

  beforeAll(async () => {
    db = await database.open({ onQuery: (text) => statements.push(text) });
  });
  afterAll(() => database.close(db));

  it("serves analyze requests through the real route, then leaves no row behind", { timeout: 120_000 }, async () => {
    const system = <T>(work: () => Promise<T>) => withSystemScope("operator", work);
    // The queue's tables exist once it has started; the first warm-up starts it.
    await warmUpAnalyzeRoute(db);
    const before = await system(() => rowCounts(db));
    statements.length = 0;
    await warmUpAnalyzeRoute(db);
    // Each request ended with its analysis stored (completeAnalysisJob), as a customer's would.
    expect(statements.filter((text) => /INSERT INTO "analyses"/.test(text)).length).toBeGreaterThanOrEqual(10);
    expect(await system(() => rowCounts(db))).toEqual(before);
    expect(await system(() => db.select().from(organizations).where(like(organizations.slug, `${WARM_UP_SLUG_PREFIX}%`)))).toEqual([]);
  });

  it("removes what a start that died during its warm-up left, once it is stale", { timeout: 120_000 }, async () => {
    const system = <T>(work: () => Promise<T>) => withSystemScope("operator", work);
    const leftover = { id: newId("org"), slug: `${WARM_UP_SLUG_PREFIX}died`, name: "Start-up warm-up", createdAt: new Date(Date.now() - 11 * 60_000) };
    const recent = { id: newId("org"), slug: `${WARM_UP_SLUG_PREFIX}starting`, name: "Start-up warm-up" };
    await system(() => db.insert(organizations).values([leftover, recent]));
    await createApiKey(db, { organizationId: leftover.id, kind: "production", createdBy: OPERATOR });
    await warmUpAnalyzeRoute(db);
    const left = await system(() => db.select({ id: organizations.id }).from(organizations).where(like(organizations.slug, `${WARM_UP_SLUG_PREFIX}%`)));
    // Another instance may be warming up with the recent one right now.
    expect(left).toEqual([{ id: recent.id }]);
    expect(await system(() => db.select().from(apiKeys).where(eq(apiKeys.organizationId, leftover.id)))).toEqual([]);
    await system(() => db.transaction((tx) => deleteWarmUpOrganization(tx, recent.id, [])));
  });

  it("never removes a customer's organization", async () => {
    const customer = { id: newId("org"), slug: `warm-up-${Date.now()}`, name: "A customer" };
    await withSystemScope("operator", () => db.insert(organizations).values(customer));
    await expect(withSystemScope("operator", () => db.transaction((tx) => deleteWarmUpOrganization(tx, customer.id, [])))).rejects.toThrow(/not a warm-up organization/);
  });
});

/**
 * `next start` loads the route's own bundle on its first request, apart from the code the warm-up
 * runs in: the server warms it over HTTP once it serves. A server of its own on the test's
 * PostgreSQL (embedded PGlite serves one process) stands for it.
 */
describe("the start-up warm-up over HTTP", () => {
  const postgresql = testDatabases().find((candidate) => candidate.name === "postgresql")!;
  let db: Db;
  let server: ServerProcess;

  beforeAll(async () => {
    db = await postgresql.open();
    server = await startServerProcess({ DATABASE_URL: testDatabaseUrl() });
  }, 300_000);
  afterAll(async () => {
    await server?.stop();
    await postgresql.close(db);
  });

  it("sends every request to the server's origin, which answers each, and leaves no warm-up organization", { timeout: 120_000 }, async () => {
    expect(await warmUpAnalyzeRoute(db, { origin: server.origin })).toBe(WARM_UP_REQUESTS);
    expect(await withSystemScope("operator", () => db.select().from(organizations).where(like(organizations.slug, `${WARM_UP_SLUG_PREFIX}%`)))).toEqual([]);
  });

  it("answers none when nothing listens at the origin, and still removes its organization", { timeout: 120_000 }, async () => {
    expect(await warmUpAnalyzeRoute(db, { origin: "http://127.0.0.1:9" })).toBe(0);
    expect(await withSystemScope("operator", () => db.select().from(organizations).where(like(organizations.slug, `${WARM_UP_SLUG_PREFIX}%`)))).toEqual([]);
  });
});
