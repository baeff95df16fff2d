import PgBoss from "pg-boss";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createQueueOnce } from "@/lib/jobs/start-queues";
import { testDatabaseUrl } from "../support/databases";

/**
 * Two app processes starting at once on a fresh PostgreSQL both create the
 * analysis queue; pg-boss's create_queue deadlocks between them (seen in CI:
 * one process died at start). Two pg-boss instances on two connections race
 * here the way two processes do. PGlite serves one process, so it has no race.
 */
describe("creating the analysis queue from two processes at once, on PostgreSQL", () => {
  const bosses = [0, 1].map(() => new PgBoss({ connectionString: testDatabaseUrl(), max: 2 }));

  beforeAll(async () => {
    for (const boss of bosses) {
      boss.on("error", () => undefined);
      await boss.start();
    }
  });
  afterAll(async () => {
    for (const boss of bosses) await boss.stop({ graceful: false, wait: true });
  });

  it("ends with the queue created and neither side failing, race after race", async () => {
    for (let race = 0; race < 10; race++) {
      const name = `create-race-${process.pid}-${Date.now()}-${race}`;
      const outcomes = await Promise.allSettled(bosses.map((boss) => createQueueOnce(boss, name, { name, retryLimit: 2 })));
      expect(outcomes.map((o) => (o.status === "rejected" ? String(o.reason) : "created"))).toEqual(["created", "created"]);
      expect(await bosses[0]!.getQueue(name)).toMatchObject({ name, retryLimit: 2 });
    }
  });
});
