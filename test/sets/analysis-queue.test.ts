import { describe, expect, it } from "vitest";
import { PARALLEL_ANALYSES, settleBackgroundAnalyses, startInBackground } from "@/lib/sets/analysis-queue";

describe("background analyses", () => {
  it("run at most PARALLEL_ANALYSES at once, in order, and settle together", async () => {
    const releases: (() => void)[] = [];
    const started: number[] = [];
    let running = 0;
    let peak = 0;
    for (let i = 0; i < PARALLEL_ANALYSES + 3; i++) {
      startInBackground(async () => {
        started.push(i);
        running++;
        peak = Math.max(peak, running);
        await new Promise<void>((resolve) => releases.push(resolve));
        running--;
      });
    }
    expect(started).toEqual([0, 1].slice(0, PARALLEL_ANALYSES));
    let settled = false;
    const all = settleBackgroundAnalyses().then(() => (settled = true));
    while (started.length < PARALLEL_ANALYSES + 3 || releases.length > 0) {
      releases.shift()?.();
      await new Promise((resolve) => setImmediate(resolve));
    }
    await all;
    expect(settled).toBe(true);
    expect(peak).toBe(PARALLEL_ANALYSES);
    expect(started).toEqual([0, 1, 2, 3, 4]);
  });

  it("keeps going after a task that throws", async () => {
    const done: string[] = [];
    startInBackground(async () => {
      throw new Error("reader crashed");
    });
    startInBackground(async () => {
      done.push("next");
    });
    await settleBackgroundAnalyses();
    expect(done).toEqual(["next"]);
  });
});
