import { describe, expect, it } from "vitest";
import { nextPollInterval, POLL_MAX_MS, POLL_MIN_MS } from "@/components/sets/poll-interval";

describe("nextPollInterval", () => {
  it("starts at the shortest wait", () => {
    expect(nextPollInterval(null, false)).toBe(POLL_MIN_MS);
  });

  it("doubles while nothing changes, up to the cap", () => {
    const waits: number[] = [];
    let wait: number | null = null;
    for (let i = 0; i < 6; i++) {
      wait = nextPollInterval(wait, false);
      waits.push(wait);
    }
    expect(waits).toEqual([1000, 2000, 4000, 8000, 10_000, 10_000]);
    expect(Math.max(...waits)).toBe(POLL_MAX_MS);
  });

  it("starts again from the shortest wait when the set changed", () => {
    expect(nextPollInterval(8000, true)).toBe(POLL_MIN_MS);
    expect(nextPollInterval(POLL_MAX_MS, true)).toBe(POLL_MIN_MS);
  });
});
