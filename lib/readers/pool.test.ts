import { join } from "node:path";
import { afterAll, describe, expect, it, vi } from "vitest";
import { docx, makeDocx } from "@/test/fixtures/formats/docx-fixtures";
import { AnalysisError, ingestDocument, pageTextsOf, analyzePages } from "../analysis";
import { readIsolated } from "./ingest-isolated";
import { processUsage } from "./process-control";
import { ProcessPool, QueueFullError } from "./pool";

const HOSTILE = join(process.cwd(), "test/fixtures/formats/hostile-jobs.ts");
const job = (exportName: string, ...args: unknown[]) => ({ module: HOSTILE, exportName, args });
const READER_JOBS = join(process.cwd(), "test/jobs/reader-jobs.ts");
const pidJob = { module: READER_JOBS, exportName: "readerPid", args: [] };
/** Whether the reader of that pid still runs. */
const alive = (pid: number) => {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
};

const pools: ProcessPool[] = [];
function makePool(options: ConstructorParameters<typeof ProcessPool>[0] = {}): ProcessPool {
  const pool = new ProcessPool(options);
  pools.push(pool);
  return pool;
}
afterAll(() => pools.forEach((p) => p.close()));

describe("ProcessPool", () => {
  it("kills a job that loops forever at its processor-time budget, then serves the next job normally", async () => {
    const pool = makePool({ size: 1 });
    const stuck = pool.run(job("spinForever"), { cpuBudgetMs: 1_500, wallTimeoutMs: 600_000 });
    const next = pool.run<string>(job("answerAfter", "next", 0));
    await expect(stuck).rejects.toThrow(new AnalysisError("timeout", "Reading the file took more than 2 s of processing time; it was stopped."));
    await expect(next).resolves.toBe("next");
  });

  it("kills a job holding more memory than allowed, outside the V8 heap too", async () => {
    const pool = makePool({ size: 1, maxRssBytes: 300 * 1024 * 1024 });
    await expect(pool.run(job("holdMemory", 600), { cpuBudgetMs: 30_000 })).rejects.toMatchObject({ code: "limit_exceeded" });
    await expect(pool.run<string>(job("answerAfter", "after", 0))).resolves.toBe("after");
  });

  it("counts the memory of the processes a job starts (OCR, rendering) and kills them with it", async () => {
    const pool = makePool({ size: 1, maxRssBytes: 400 * 1024 * 1024 });
    await expect(pool.run(job("holdMemoryInHelper", 600), { cpuBudgetMs: 30_000 })).rejects.toMatchObject({ code: "limit_exceeded" });
    await expect(pool.run<string>(job("answerAfter", "after", 0))).resolves.toBe("after");
  });

  it("turns a crashed child into an unreadable error and replaces it", async () => {
    const pool = makePool({ size: 1 });
    await expect(pool.run(job("crash"))).rejects.toMatchObject({ code: "unreadable" });
    await expect(pool.run<string>(job("answerAfter", "again", 0))).resolves.toBe("again");
  });

  it("runs at most `size` jobs at once", async () => {
    const pool = makePool({ size: 2 });
    // Both children started and idle first, so that a and b are each handed to a child ready to run them.
    await Promise.all([pool.run(job("answerAfter", "warm-1", 100)), pool.run(job("answerAfter", "warm-2", 100))]);
    type Run = { label: string; start: number; end: number };
    const labels = ["a", "b", "c", "d", "e"];
    const runs = labels.map((label) => pool.run<Run>(job("reportRun", label, 300)));
    expect(pool.waiting).toBe(3);
    const done = await Promise.all(runs);
    // c, d and e are sent only as a or b finish. (Which of two children reads its job first
    // is up to the scheduler, so the order among c, d and e is checked with one child below.)
    expect([...done].sort((x, y) => x.start - y.start).slice(0, 2).map((r) => r.label).sort()).toEqual(["a", "b"]);
    // At the moment any job starts, at most two jobs (it included) are running.
    for (const run of done) {
      const runningThen = done.filter((other) => other.start <= run.start && run.start < other.end);
      expect(runningThen.length).toBeLessThanOrEqual(2);
    }
  });

  it("starts queued jobs in arrival order", async () => {
    const pool = makePool({ size: 1 });
    type Run = { label: string; start: number; end: number };
    const runs = ["a", "b", "c", "d", "e"].map((label) => pool.run<Run>(job("reportRun", label, 50)));
    const done = await Promise.all(runs);
    expect([...done].sort((x, y) => x.start - y.start).map((r) => r.label)).toEqual(["a", "b", "c", "d", "e"]);
  });
});

describe("ProcessPool time limits", () => {
  it("counts processor time, not the clock: a job that waits past its budget is answered, one that stalls is stopped at the wall-clock backstop", async () => {
    const pool = makePool({ size: 1, cpuBudgetMs: 1_000, wallTimeoutMs: 4_000 });
    await expect(pool.run<string>(job("sleepFor", 2_500))).resolves.toBe("slept");
    const started = performance.now();
    await expect(pool.run(job("sleepFor", 600_000))).rejects.toThrow(new AnalysisError("timeout", "Reading the file took longer than 4 s; it was stopped."));
    expect(performance.now() - started).toBeGreaterThanOrEqual(4_000);
  });

  it("stops a job at its budget spent by helper processes that have ended, long before the wall-clock backstop", async () => {
    const pool = makePool({ size: 1 });
    const started = performance.now();
    const error = await pool.run(job("spinInHelpers", 300), { cpuBudgetMs: 2_000, wallTimeoutMs: 600_000 }).catch((e: unknown) => e);
    expect(error).toEqual(new AnalysisError("timeout", "Reading the file took more than 2 s of processing time; it was stopped."));
    expect(performance.now() - started).toBeLessThan(120_000);
    await expect(pool.run<string>(job("answerAfter", "after", 0))).resolves.toBe("after");
  });
});

describe("ProcessPool queueing", () => {
  type Run = { label: string; start: number; end: number };
  const startOrder = (runs: Run[]) => [...runs].sort((x, y) => x.start - y.start).map((r) => r.label);

  it("gives organizations turns: one organization's backlog does not hold back another's single job", async () => {
    const pool = makePool({ size: 1 });
    const runs = [
      ...["a1", "a2", "a3", "a4"].map((label) => pool.run<Run>(job("reportRun", label, 100), { tenant: "org-a" })),
      pool.run<Run>(job("reportRun", "b1", 100), { tenant: "org-b" }),
    ];
    // a1 was already running; among the waiting jobs org-b's comes after a single one of org-a's.
    expect(startOrder(await Promise.all(runs))).toEqual(["a1", "a2", "b1", "a3", "a4"]);
  });

  it("refuses a bounded job when maxQueue jobs are already waiting, and takes jobs again once the queue drains", async () => {
    const pool = makePool({ size: 1, maxQueue: 1 });
    const running = pool.run<string>(job("answerAfter", "running", 300));
    const waiting = pool.run<string>(job("answerAfter", "waiting", 0));
    const refused = await pool.run(job("answerAfter", "refused", 0)).catch((e: unknown) => e);
    expect(refused).toBeInstanceOf(QueueFullError);
    expect((refused as QueueFullError).retryAfterSeconds).toBeGreaterThanOrEqual(1);
    // An unbounded job (a caller that limits its own jobs) still waits its turn.
    const unbounded = pool.run<string>(job("answerAfter", "unbounded", 0), { bounded: false });
    await expect(Promise.all([running, waiting, unbounded])).resolves.toEqual(["running", "waiting", "unbounded"]);
    await expect(pool.run<string>(job("answerAfter", "after", 0))).resolves.toBe("after");
  });

  it("fails a job as an internal error, not the file's, when the reader cannot start", async () => {
    const pool = makePool({ size: 1, preload: [join(process.cwd(), "test/fixtures/formats/no-such-module.ts")] });
    const error = await pool.run(job("answerAfter", "never", 0)).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(Error);
    expect(error).not.toBeInstanceOf(AnalysisError);
    expect((error as Error).message).toMatch(/exited before it was ready/);
  });
});

describe("ProcessPool readers", () => {

  it("are all loaded when ready() resolves after warm()", async () => {
    const pool = makePool({ size: 2 });
    pool.warm();
    expect(pool.readyReaders).toBe(0);
    await pool.ready();
    expect(pool.readyReaders).toBe(2);
  });

  it("replaces a worn reader without a gap: it serves on until its replacement has loaded, then goes", async () => {
    const pool = makePool({ size: 1, maxJobsPerChild: 1 });
    // The second job waits while the first runs, and is handed out the moment the first ends.
    const [first, second] = await Promise.all([pool.run<number>(pidJob), pool.run<number>(pidJob)]);
    // Worn after one job, but its replacement was still loading: the same reader took the next one.
    expect(second).toBe(first);
    await pool.ready();
    const third = await pool.run<number>(pidJob);
    expect(third).not.toBe(first);
    // Killed once its replacement answered; the exit is reaped a moment later.
    await vi.waitFor(() => expect(alive(first)).toBe(false), { timeout: 5000 });
  });

  it("replace a reader that kept more memory after its job than it had once started, while idle", async () => {
    const pool = makePool({ size: 1, maxGrowthBytes: 64 * 2 ** 20 });
    const small = await pool.run<number>(job("growAndKeep", 8));
    await pool.ready();
    // Within the margin: the same reader serves on.
    expect(await pool.run<number>(pidJob)).toBe(small);
    const grown = await pool.run<number>(job("growAndKeep", 200));
    expect(grown).toBe(small);
    // No job waits for it: its replacement loads while the pool is idle, then it goes.
    await vi.waitFor(() => expect(alive(grown)).toBe(false), { timeout: 60_000, interval: 200 });
    const fresh = await pool.run<number>(pidJob);
    expect(fresh).not.toBe(grown);
  });
});

describe("ProcessPool at rest", () => {
  const MIB = 2 ** 20;
  const resident = (pid: number) => processUsage(pid)!.residentBytes;
  // 32 MB kept: below the growth cap (64 MB here), above the rest margin (16 MB).
  const options = { maxGrowthBytes: 64 * MIB, restMarginBytes: 16 * MIB, restAfterMs: 1_000 };

  it("replaces, after the quiet spell, an idle reader that kept memory below the growth cap: a new reader back at its ready size", async () => {
    const pool = makePool({ size: 1, ...options });
    const first = await pool.run<number>(pidJob);
    const readySize = resident(first);
    const grown = await pool.run<number>(job("growAndKeep", 32));
    expect(grown).toBe(first);
    expect(resident(grown)).toBeGreaterThan(readySize + 16 * MIB);
    await vi.waitFor(() => expect(alive(grown)).toBe(false), { timeout: 30_000, interval: 200 });
    expect(pool.atRest).toBe(true);
    const fresh = await pool.run<number>(pidJob);
    expect(fresh).not.toBe(grown);
    expect(resident(fresh)).toBeLessThan(readySize + 16 * MIB);
  });

  it("keeps a reader that did not grow: only the grown one of two is replaced", async () => {
    const pool = makePool({ size: 2, ...options });
    pool.warm();
    await pool.ready();
    // Both at once: each goes to its own reader.
    const [grown, kept] = await Promise.all([pool.run<number>(job("growAndKeep", 32)), pool.run<number>(pidJob)]);
    expect(grown).not.toBe(kept);
    await vi.waitFor(() => expect(alive(grown)).toBe(false), { timeout: 30_000, interval: 200 });
    // The rest pass that replaced one reader has looked at the other too.
    await vi.waitFor(() => expect(pool.atRest).toBe(true), { timeout: 30_000, interval: 200 });
    expect(alive(kept)).toBe(true);
    // Two jobs at once again: one on each reader there is now.
    const now = await Promise.all([pool.run<number>(pidJob), pool.run<number>(pidJob)]);
    expect(now).toContain(kept);
    expect(now).not.toContain(grown);
  });

  it("replaces no reader while jobs keep coming, however long: only once they stop", async () => {
    const pool = makePool({ size: 1, ...options });
    const grown = await pool.run<number>(job("growAndKeep", 32));
    // Jobs one after another for three quiet spells and more.
    for (let i = 0; i < 12; i++) {
      expect(await pool.run<string>(job("answerAfter", "busy", 300))).toBe("busy");
      expect(await pool.run<number>(pidJob)).toBe(grown);
    }
    await vi.waitFor(() => expect(alive(grown)).toBe(false), { timeout: 30_000, interval: 200 });
    expect(await pool.run<number>(pidJob)).not.toBe(grown);
  });

  it("stops its quiet spell at close: nothing is replaced after it", async () => {
    const pool = makePool({ size: 1, ...options });
    const grown = await pool.run<number>(job("growAndKeep", 32));
    // The job has left the pool idle: its quiet spell has begun.
    await vi.waitFor(() => expect(pool.busy).toBe(0));
    expect(pool.atRest).toBe(false);
    pool.close();
    expect(pool.atRest).toBe(true);
    await vi.waitFor(() => expect(alive(grown)).toBe(false), { timeout: 5_000 });
  });
});

describe("readIsolated", () => {
  const pool = makePool({ size: 1 });
  const options = { fileName: "invoice.docx", evidence: true, maxPages: 10 };

  it("returns the same analyze array and page text as the engine in process, and the pages only when asked", async () => {
    const bytes = makeDocx([docx.paragraph("COMMERCIAL INVOICE", { size: 18 }), docx.pageBreak(), docx.paragraph("PACKING LIST")]);
    const pages = await ingestDocument(bytes);
    const read = await readIsolated(bytes, { ...options, keepPages: false }, pool);
    expect(read).toEqual({ result: analyzePages(pages, options), pageText: pageTextsOf(pages), pageCount: 2 });
    expect((await readIsolated(bytes, { ...options, keepPages: true }, pool)).pages).toEqual(pages);
  });

  it("hands the engine's progress reports from the reader to onProgress while it reads", async () => {
    const bytes = makeDocx([docx.paragraph("COMMERCIAL INVOICE", { size: 18 }), docx.pageBreak(), docx.paragraph("PACKING LIST")]);
    const reports: unknown[] = [];
    await readIsolated(bytes, { ...options, keepPages: false, onProgress: (progress) => reports.push(progress) }, pool);
    expect(reports).toEqual([{ pagesDone: 2, pagesTotal: 2 }]);
  });

  it("rebuilds the child's typed errors", async () => {
    const error = await readIsolated(new TextEncoder().encode("just text"), { ...options, keepPages: false }, pool).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(AnalysisError);
    expect(error).toMatchObject({ code: "unsupported_format" });
  });
});
