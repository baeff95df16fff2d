import { eq, sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Db } from "@/db/client";
import { queryRows } from "@/db/queries/rows";
import { analyses } from "@/db/schema";
import { analysisQueue, stopAnalysisQueue } from "@/lib/jobs";
import { analyzeForm, createTestOrganization, invoicePages, makePdf, type TestOrganization } from "../support/api-fixtures";
import { testDatabases, testDatabaseUrl } from "../support/databases";
import { startServerProcess, type ServerProcess } from "../support/server-process";

/** The role DATABASE_APP_ROLE names: it owns no application table, so row-level security binds it. */
const APP_ROLE = "shipshape_app";

// The app role is PostgreSQL's matter: embedded PGlite has one user, a superuser.
const postgresql = testDatabases().find((database) => database.name === "postgresql");
if (!postgresql) throw new Error("testDatabases() lacks PostgreSQL");

/**
 * The analyze route in its own process, on PostgreSQL, as the app's role:
 * key look-up, admission, the queue and the worker all run under strict
 * row-level security, on a database whose pg-boss schema the owner made.
 */
describe("the app as DATABASE_APP_ROLE on PostgreSQL, through real HTTP", () => {
  let owner: Db;
  let server: ServerProcess;
  let mine: TestOrganization;
  let theirs: TestOrganization;

  beforeAll(async () => {
    owner = await postgresql.open();
    // An existing database: pg-boss's schema was made, and is owned, by the migrating user.
    await analysisQueue(owner);
    await stopAnalysisQueue(owner, { graceful: false });
    await owner.execute(sql.raw(`REASSIGN OWNED BY ${APP_ROLE} TO current_user`));
    mine = await createTestOrganization(owner);
    theirs = await createTestOrganization(owner);
    // One reader (ANALYSIS_WORKERS): this test is not about readers, and a second one costs its start (about 2 s of processor time, loading and warming the engine).
    server = await startServerProcess({ DATABASE_URL: testDatabaseUrl(), DATABASE_APP_ROLE: APP_ROLE, ANALYSIS_WORKERS: "1" });
  });

  afterAll(async () => {
    await server?.stop();
    if (owner) await postgresql.close(owner);
  });

  const analyze = async (key: string) =>
    fetch(`${server.origin}/v1/documents/analyze`, {
      method: "POST",
      headers: { "x-api-key": key },
      body: analyzeForm({ file: { bytes: await makePdf(invoicePages()), name: "invoice.pdf" } }),
    });

  it("reads a document for a key's organization, and records the analysis as that organization's", async () => {
    const response = await analyze(mine.sandbox.key);
    expect(response.status).toBe(200);
    expect(Array.isArray(await response.json())).toBe(true);
    const recorded = await owner.select({ organizationId: analyses.organizationId }).from(analyses).where(eq(analyses.organizationId, mine.organizationId));
    expect(recorded).toHaveLength(1);
    const [other] = await owner.select({ count: sql<number>`count(*)::int` }).from(analyses).where(eq(analyses.organizationId, theirs.organizationId));
    expect(other?.count).toBe(0);
  });

  it("reads for another organization's key in that organization alone", async () => {
    expect((await analyze(theirs.sandbox.key)).status).toBe(200);
    const counts = await queryRows<{ organizationId: string; count: number }>(
      owner,
      sql`select organization_id as "organizationId", count(*)::int as count from analyses
          where organization_id in (${mine.organizationId}, ${theirs.organizationId}) group by 1`,
    );
    expect(new Map(counts.map((row) => [row.organizationId, row.count]))).toEqual(new Map([[mine.organizationId, 1], [theirs.organizationId, 1]]));
  });

  it("handed pg-boss's schema to the app's role, which made this test's queues in it", async () => {
    // pg-boss's own tables, and the partitions of this server's queues (ANALYSIS_QUEUE_NAME and the two named after it).
    // Other test files make their queues as the owner meanwhile: those partitions are theirs, and not this test's matter.
    const queue = process.env.ANALYSIS_QUEUE_NAME;
    const names = [queue, `${queue}-failed`, `${queue}-webhooks`];
    const ownTables = await queryRows<{ owner: string }>(
      owner,
      sql`select distinct pg_get_userbyid(relowner) as owner from pg_class where relnamespace = 'pgboss'::regnamespace and relkind in ('r', 'p') and not relispartition`,
    );
    expect(ownTables).toEqual([{ owner: APP_ROLE }]);
    const partitions = await queryRows<{ name: string; owner: string | null }>(
      owner,
      sql`select q.name, pg_get_userbyid(c.relowner) as owner from pgboss.queue q
          left join pg_class c on c.relnamespace = 'pgboss'::regnamespace and c.relname = q.partition_name
          where q.name in (${names[0]}, ${names[1]}, ${names[2]}) order by q.name`,
    );
    expect(partitions).toEqual(names.map((name) => ({ name, owner: APP_ROLE })));
    const schemaOwner = await queryRows<{ owner: string }>(owner, sql`select pg_get_userbyid(nspowner) as owner from pg_namespace where nspname = 'pgboss'`);
    expect(schemaOwner).toEqual([{ owner: APP_ROLE }]);
  });
});
