import pg from "pg";
import { describe, expect, it } from "vitest";
import { testDatabaseUrl } from "@/test/support/databases";
import { findOrStartTestPostgres, freePort, serverVersion } from "@/test/support/test-postgres";

/** The test setup's own paths: use the server it is given or finds, start one only when there is none. */
describe("the PostgreSQL the tests use", () => {
  it("uses TEST_DATABASE_URL as given, without looking elsewhere or starting a server", async () => {
    const nowhere = `postgres://postgres@127.0.0.1:${await freePort()}/shipshape_test`;
    const found = await findOrStartTestPostgres({ configuredUrl: nowhere, defaultUrl: testDatabaseUrl() });
    expect(found).toMatchObject({ url: nowhere, source: "TEST_DATABASE_URL", version: undefined });
  });

  it("uses a server answering at the default address and starts none", async () => {
    const found = await findOrStartTestPostgres({ defaultUrl: testDatabaseUrl() });
    expect(found.source).toBe("default address");
    expect(found.url).toBe(testDatabaseUrl());
    expect(found.version).toBe(await serverVersion(testDatabaseUrl()));
  });

  it("starts a real PostgreSQL when nothing answers at the default address, and stops it", async () => {
    const port = await freePort();
    const started = await findOrStartTestPostgres({ defaultUrl: `postgres://postgres@127.0.0.1:${port}/shipshape_test` });
    try {
      expect(started.source).toBe("started");
      expect(started.version).toMatch(/^\d+\.\d+/);
      const client = new pg.Client({ connectionString: new URL("/postgres", started.url).toString() });
      await client.connect();
      const { rows } = await client.query<{ user: string }>("SELECT current_user AS user");
      await client.end();
      expect(rows).toEqual([{ user: "postgres" }]);
    } finally {
      await started.stop();
    }
    await expect(serverVersion(started.url)).rejects.toMatchObject({ code: "ECONNREFUSED" });
  });
});
