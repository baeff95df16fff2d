import { afterEach, describe, expect, it, vi } from "vitest";
import { offerJobBytes, takeJobBytes } from "@/lib/jobs/bytes-handoff";

describe("bytes handed from a request to this process's worker", () => {
  afterEach(() => vi.useRealTimers());

  it("are taken once; a job not taken within two seconds reads its stored copy instead", () => {
    vi.useFakeTimers();
    const bytes = new Uint8Array([1, 2, 3]);
    offerJobBytes("ana_taken", bytes);
    offerJobBytes("ana_late", bytes);
    expect(takeJobBytes("ana_taken")).toBe(bytes);
    expect(takeJobBytes("ana_taken")).toBeUndefined();
    vi.advanceTimersByTime(2_000);
    expect(takeJobBytes("ana_late")).toBeUndefined();
  });

  it("hold at most 32 MB at once: a file beyond is left to the stored copy", () => {
    const big = new Uint8Array(20 * 2 ** 20);
    offerJobBytes("ana_first", big);
    offerJobBytes("ana_second", big);
    expect(takeJobBytes("ana_second")).toBeUndefined();
    expect(takeJobBytes("ana_first")).toBe(big);
    // Taken: room again.
    offerJobBytes("ana_third", big);
    expect(takeJobBytes("ana_third")).toBe(big);
  });
});
