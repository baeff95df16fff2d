import { describe, expect, it } from "vitest";
import { createGate, SIGN_IN_CONCURRENCY, SIGN_IN_QUEUE_LIMIT } from "@/lib/auth/sign-in-gate";

describe("the sign-in gate", () => {
  it("runs at most `concurrency` at once, queues up to the limit, and refuses beyond it without running", async () => {
    const gate = createGate(2, 3);
    let running = 0;
    let peak = 0;
    const releases: Array<() => void> = [];
    const work = () =>
      new Promise<string>((resolve) => {
        running += 1;
        peak = Math.max(peak, running);
        releases.push(() => {
          running -= 1;
          resolve("done");
        });
      });
    const admitted = Array.from({ length: 5 }, () => gate.run(work));
    expect(await gate.run(work)).toBeUndefined();
    // Release one at a time: each release lets exactly one queued attempt start.
    for (let released = 0; released < 5; released++) {
      await new Promise((resolve) => setImmediate(resolve));
      expect(running).toBeLessThanOrEqual(2);
      releases.shift()?.();
    }
    expect(await Promise.all(admitted)).toEqual(Array(5).fill({ value: "done" }));
    expect(peak).toBe(2);
    // With the queue drained, the gate admits again.
    const later = gate.run(async () => "again");
    expect(await later).toEqual({ value: "again" });
  });

  it("frees its slot when the work throws", async () => {
    const gate = createGate(1, 0);
    await expect(gate.run(async () => Promise.reject(new Error("boom")))).rejects.toThrow("boom");
    expect(await gate.run(async () => 1)).toEqual({ value: 1 });
  });

  it("leaves half of libuv's four threads to DNS and the file system", () => {
    expect(SIGN_IN_CONCURRENCY).toBeLessThanOrEqual(2);
    expect(SIGN_IN_QUEUE_LIMIT).toBeGreaterThan(0);
  });
});
