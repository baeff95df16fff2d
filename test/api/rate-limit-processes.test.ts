import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Db } from "@/db/client";
import { analyzeForm, createTestOrganization, invoicePages, makePdf } from "../support/api-fixtures";
import { testDatabases, testDatabaseUrl } from "../support/databases";
import { startServerProcess, type ServerProcess } from "../support/server-process";

/** The sandbox quota both processes enforce together. */
const LIMIT = 5;

// Two app processes share one limit only through PostgreSQL (PGlite is one process per database).
const postgresql = testDatabases().find((database) => database.name === "postgresql");
if (!postgresql) throw new Error("testDatabases() lacks PostgreSQL");

describe("rate limit across two app processes on one PostgreSQL", () => {
  let db: Db;
  let servers: ServerProcess[] = [];
  let key: string;
  let pdf: Uint8Array;

  beforeAll(async () => {
    db = await postgresql.open();
    key = (await createTestOrganization(db)).sandbox.key;
    pdf = await makePdf(invoicePages());
    // One reader each (ANALYSIS_WORKERS): this test is about the rate limit the two servers share, and a second reader costs its start (about 2 s of processor time).
    const env = { DATABASE_URL: testDatabaseUrl(), RATE_LIMIT_SANDBOX: String(LIMIT), ANALYSIS_WORKERS: "1" };
    servers = await Promise.all([startServerProcess(env), startServerProcess(env)]);
  });

  afterAll(async () => {
    await Promise.all(servers.map((server) => server.stop()));
    if (db) await postgresql.close(db);
  });

  it(`admits exactly ${LIMIT} of ${2 * LIMIT} concurrent requests and refuses the rest with 429`, async () => {
    const responses = await Promise.all(
      Array.from({ length: 2 * LIMIT }, (_, i) =>
        fetch(`${servers[i % 2]?.origin}/v1/documents/analyze`, {
          method: "POST",
          headers: { "x-api-key": key },
          body: analyzeForm({ file: { bytes: pdf, name: "invoice.pdf" } }),
        }),
      ),
    );
    const statuses = responses.map((response) => response.status);
    expect(statuses.filter((status) => status === 200)).toHaveLength(LIMIT);
    expect(statuses.filter((status) => status === 429)).toHaveLength(LIMIT);
    for (const response of responses) {
      expect(response.headers.get("ratelimit-policy")).toBe(`"sandbox";q=${LIMIT};w=60`);
      expect(response.headers.get("ratelimit")).toMatch(/^"sandbox";r=\d+;t=\d+$/);
      if (response.status === 429) {
        expect(Number(response.headers.get("retry-after"))).toBeGreaterThanOrEqual(1);
        expect(Object.keys((await response.json()) as object)).toEqual(["detail"]);
      } else {
        expect(Array.isArray(await response.json())).toBe(true);
      }
    }
  });
});
