import { sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import type { Db } from "@/db/client";
import { queryRows } from "@/db/queries/rows";
import { resetEnvForTests } from "@/lib/env";
import { analysisQueue, stopAnalysisQueue } from "@/lib/jobs";
import { testDatabases } from "../support/databases";

/**
 * pg-boss hands a job out again once it has been active for its queue's
 * expiry: that must never happen while its reader still runs, which it may
 * until the wall-clock backstop (ANALYSIS_WALL_TIMEOUT_MS, by default five
 * times the CPU budget ANALYSIS_TIMEOUT_MS), however the deployment changes it.
 */
for (const database of testDatabases()) {
  describe(`the analysis queue's expiry (${database.name})`, () => {
    let db: Db;
    const expirySeconds = async () => {
      const name = process.env.ANALYSIS_QUEUE_NAME!;
      const [row] = await queryRows<{ expire_seconds: number }>(db, sql`SELECT expire_seconds FROM pgboss.queue WHERE name = ${name}`);
      return row?.expire_seconds;
    };
    const startWith = async (variables: Record<string, string | undefined>) => {
      await stopAnalysisQueue(db, { graceful: false });
      for (const [name, value] of Object.entries(variables)) vi.stubEnv(name, value);
      resetEnvForTests();
      await analysisQueue(db);
    };

    beforeAll(async () => {
      vi.stubEnv("ANALYSIS_IN_PROCESS_WORKER", "false");
      db = await database.open();
    });
    afterAll(async () => {
      if (db) {
        await stopAnalysisQueue(db, { graceful: false });
        await database.close(db);
      }
      vi.unstubAllEnvs();
      resetEnvForTests();
    });

    it("is twice the wall-clock backstop, and follows it on a queue made by an earlier start", async () => {
      await startWith({ ANALYSIS_TIMEOUT_MS: "60000", ANALYSIS_WALL_TIMEOUT_MS: undefined });
      expect(await expirySeconds()).toBe(2 * 5 * 60);
      await startWith({ ANALYSIS_WALL_TIMEOUT_MS: "900000" });
      expect(await expirySeconds()).toBe(2 * 900);
    });
  });
}
