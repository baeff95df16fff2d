import { join } from "node:path";
import { analysisWallTimeoutMs, env } from "@/lib/env";
import { type JobModule, jobOf } from "./job-module";
import { DEFAULT_MAX_HEAP_MB, ProcessPool } from "./pool";
import type { ReadingProgress } from "../analysis";
import type { ReaderOptions, ReaderResult } from "./read-in-reader";

/**
 * Reading a document in the shared isolation pool: ingestion (parsing and
 * OCR) and the pure pipeline run in a reader process (read-in-reader.ts).
 */
export interface IsolationOptions {
  /** Processor time reading the file may take, OCR included; ANALYSIS_TIMEOUT_MS by default. */
  cpuBudgetMs?: number;
  /** Wall-clock backstop of reading the file; ANALYSIS_WALL_TIMEOUT_MS (or its default) by default. */
  wallTimeoutMs?: number;
  /** Whose file this is (the organization id): organizations take turns in the pool's queue. */
  tenant?: string;
  /**
   * false: wait in the queue however long it is, for callers that already limit
   * how many jobs they queue (the job workers). Default true: refused with
   * QueueFullError when ANALYSIS_QUEUE_MAX documents are waiting.
   */
  bounded?: boolean;
  /** Hears how far the reader has got (pages read of the file's pages), while it reads. */
  onProgress?: (progress: ReadingProgress) => void;
}

const MIB = 2 ** 20;

/**
 * Ingestion and the pipeline together; it imports the ingest module, so preloading it loads both.
 * Resolved from the project root: the working directory of `next start`, tsx and Vitest alike.
 */
function readerModule(): JobModule<typeof import("./read-in-reader")> {
  return { path: join(process.cwd(), "lib/readers/read-in-reader.ts") };
}

/**
 * What a reader loads before it says it is ready (pools of tests and tools pass it too): the engine,
 * then a few reads of a sample invoice (warm-up.ts), so its first documents run on compiled code.
 */
export function readerPreload(): string[] {
  return [readerModule().path, join(process.cwd(), "lib/readers/warm-up.ts")];
}

/** One pool per server process, kept on globalThis so that Next's dev reloads reuse it (and `npm run fuzz` finds it through the inspector). */
export const POOL_KEY = Symbol.for("shipshape.isolation-pool");

/** The process-wide pool, sized and capped from the environment (see the README's configuration table). */
export function sharedPool(): ProcessPool {
  const holder = globalThis as typeof globalThis & { [POOL_KEY]?: ProcessPool };
  if (!holder[POOL_KEY]) {
    const config = env();
    holder[POOL_KEY] = new ProcessPool({
      size: config.ANALYSIS_WORKERS,
      maxQueue: config.ANALYSIS_QUEUE_MAX,
      cpuBudgetMs: config.ANALYSIS_TIMEOUT_MS,
      wallTimeoutMs: analysisWallTimeoutMs(config),
      maxRssBytes: config.ANALYSIS_MAX_MEMORY_MB * MIB,
      // The V8 heap is part of the resident memory: it can never usefully exceed the memory cap.
      maxHeapMb: Math.min(DEFAULT_MAX_HEAP_MB, config.ANALYSIS_MAX_MEMORY_MB),
      preload: readerPreload(),
    });
    // Every reader starts now, with the first document: the next ones find the engine loaded.
    holder[POOL_KEY].warm();
  }
  return holder[POOL_KEY];
}

/**
 * A document read and analysed in a reader process (readInReader): the
 * pipeline runs there too, so only the analyze array and the page text come
 * back. The engine's AnalysisErrors as in process, plus "timeout" or
 * "limit_exceeded" when the reader was killed, and QueueFullError when the
 * pool's queue is full (bounded jobs).
 */
export function readIsolated(
  bytes: Uint8Array,
  options: ReaderOptions & IsolationOptions,
  pool: ProcessPool = sharedPool(),
): Promise<ReaderResult> {
  const { cpuBudgetMs, wallTimeoutMs, tenant, bounded, onProgress, ...readerOptions } = options;
  const progress = onProgress && ((value: unknown) => onProgress(value as ReadingProgress));
  return pool.run(jobOf(readerModule(), "readInReader", bytes, readerOptions), { cpuBudgetMs, wallTimeoutMs, tenant, bounded, onProgress: progress });
}
