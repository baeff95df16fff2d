import { afterEach, describe, expect, it, vi } from "vitest";
import type { JobProgress } from "@/db/queries/analysis-jobs";
import { estimateEnd, minutesLeft, progressRecorder, secondsLeft } from "@/lib/jobs/job-progress";

describe("estimateEnd", () => {
  it("has no estimate until a page has been read since the first report", () => {
    expect(estimateEnd({ at: 1_000, pagesDone: 0 }, { at: 5_000, pagesDone: 0, pagesTotal: 10 })).toBeUndefined();
    expect(estimateEnd({ at: 1_000, pagesDone: 4 }, { at: 1_000, pagesDone: 4, pagesTotal: 10 })).toBeUndefined();
  });

  it("projects the pace of the pages read since the first report, not counting the pages read before it", () => {
    // 4 text-layer pages at once, then 2 scanned pages in 20 s: 10 s a page, 4 pages to go.
    expect(estimateEnd({ at: 1_000, pagesDone: 4 }, { at: 21_000, pagesDone: 6, pagesTotal: 10 })).toBe(61_000);
  });
});

describe("secondsLeft", () => {
  it("counts whole seconds to the estimate, never below zero, and null without one", () => {
    const now = new Date("2026-11-26T12:00:00Z");
    expect(secondsLeft(new Date("2026-11-26T12:00:41.200Z"), now)).toBe(42);
    expect(secondsLeft(new Date("2026-11-26T11:59:00Z"), now)).toBe(0);
    expect(secondsLeft(null, now)).toBeNull();
    expect(minutesLeft(new Date("2026-11-26T12:00:29Z"), now)).toBe(0);
    expect(minutesLeft(new Date("2026-11-26T12:03:40Z"), now)).toBe(4);
    expect(minutesLeft(null, now)).toBeNull();
  });
});

describe("progressRecorder", () => {
  afterEach(() => vi.useRealTimers());

  it("writes at most once per interval and always the latest report in the end", async () => {
    vi.useFakeTimers({ now: 0 });
    const writes: JobProgress[] = [];
    const recorder = progressRecorder(async (progress) => void writes.push(progress), { intervalMs: 1_000 });
    recorder.report({ pagesDone: 0, pagesTotal: 20 });
    // A burst: twenty reports within 200 ms.
    for (let page = 1; page <= 20; page++) {
      await vi.advanceTimersByTimeAsync(10);
      recorder.report({ pagesDone: page, pagesTotal: 20 });
    }
    // The first page read was written at 10 ms; the next write waits for 1,010 ms.
    await vi.advanceTimersByTimeAsync(809);
    expect(writes.map((w) => w.pagesDone)).toEqual([1]);
    await vi.advanceTimersByTimeAsync(1);
    expect(writes.map((w) => w.pagesDone)).toEqual([1, 20]);
    await vi.advanceTimersByTimeAsync(5_000);
    expect(writes).toHaveLength(2);
    expect(writes[0]!.estimatedEndAt).toEqual(new Date(10 + 19 * 10));
    expect(writes[1]!.estimatedEndAt).toEqual(new Date(200));
    await recorder.close();
  });

  it("writes nothing before a page is read, nor for a one-page file (a statement each, on the server's thread)", async () => {
    vi.useFakeTimers({ now: 0 });
    const writes: JobProgress[] = [];
    const recorder = progressRecorder(async (progress) => void writes.push(progress), { intervalMs: 1_000 });
    recorder.report({ pagesDone: 0, pagesTotal: 3 });
    await vi.advanceTimersByTimeAsync(5_000);
    expect(writes).toEqual([]);
    recorder.report({ pagesDone: 1, pagesTotal: 3 });
    await vi.advanceTimersByTimeAsync(0);
    // The pace counts from the first report, the one not written.
    expect(writes).toEqual([{ pagesDone: 1, pagesTotal: 3, estimatedEndAt: new Date(15_000) }]);
    await recorder.close();

    const single: JobProgress[] = [];
    const onePage = progressRecorder(async (progress) => void single.push(progress), { intervalMs: 1_000 });
    onePage.report({ pagesDone: 1, pagesTotal: 1 });
    await vi.advanceTimersByTimeAsync(5_000);
    expect(single).toEqual([]);
    await onePage.close();
  });

  it("writes nothing once closed, and close waits for a write under way", async () => {
    let release: () => void = () => undefined;
    const writes: JobProgress[] = [];
    const recorder = progressRecorder((progress) => new Promise<void>((resolve) => (release = () => resolve(void writes.push(progress)))), { intervalMs: 60_000 });
    recorder.report({ pagesDone: 1, pagesTotal: 3 });
    await Promise.resolve();
    // The first write is under way; this one waits for the interval.
    recorder.report({ pagesDone: 2, pagesTotal: 3 });
    let closed = false;
    const closing = recorder.close().then(() => (closed = true));
    await Promise.resolve();
    expect(closed).toBe(false);
    release();
    await closing;
    recorder.report({ pagesDone: 3, pagesTotal: 3 });
    expect(writes.map((w) => w.pagesDone)).toEqual([1]);
  });
});
