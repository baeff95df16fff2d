import { join } from "node:path";
import { env } from "@/lib/env";
import type { IngestOptions } from "../ingest";
import type { Page } from "../types";
import { DEFAULT_MAX_HEAP_MB, ProcessPool } from "./pool";
import type { ReaderOptions, ReaderResult } from "./read-in-reader";

/**
 * Ingestion (parsing and OCR) in the shared isolation pool. The analysis steps
 * after ingestion are pure functions over pages and run in the caller.
 */
export interface IsolatedIngestOptions extends IngestOptions {
  /** Wall-clock limit for reading the file, OCR included; ANALYSIS_TIMEOUT_MS by default. */
  timeoutMs?: number;
  /** Whose file this is (the organization id): organizations take turns in the pool's queue. */
  tenant?: string;
  /**
   * false: wait in the queue however long it is, for callers that already limit
   * how many jobs they queue (the web app's background analyses). Default true:
   * refused with QueueFullError when ANALYSIS_QUEUE_MAX documents are waiting.
   */
  bounded?: boolean;
}

const MIB = 2 ** 20;
/** Sources are resolved from the project root: the working directory of `next start`, tsx and Vitest alike. */
const INGEST_MODULE = "lib/analysis/ingest/index.ts";
/** Ingestion and the pipeline together (read-in-reader.ts); it imports the ingest module, so preloading it loads both. */
const READER_MODULE = "lib/analysis/isolate/read-in-reader.ts";

/** What a reader loads before it says it is ready (pools of tests and tools pass it too). */
export function readerPreload(): string[] {
  return [join(process.cwd(), READER_MODULE)];
}

/** One pool per server process, kept on globalThis so that Next's dev reloads reuse it. */
const POOL_KEY = Symbol.for("shipshape.isolation-pool");

/** The process-wide pool, sized and capped from the environment (see the README's configuration table). */
export function sharedPool(): ProcessPool {
  const holder = globalThis as typeof globalThis & { [POOL_KEY]?: ProcessPool };
  if (!holder[POOL_KEY]) {
    const config = env();
    holder[POOL_KEY] = new ProcessPool({
      size: config.ANALYSIS_WORKERS,
      maxQueue: config.ANALYSIS_QUEUE_MAX,
      jobTimeoutMs: config.ANALYSIS_TIMEOUT_MS,
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
 * ingestDocument, run in an isolated child process with time and memory caps.
 * Same pages and the same AnalysisErrors as in process, plus: "timeout" or
 * "limit_exceeded" when the reader was killed, and QueueFullError when the
 * pool's queue is full.
 */
export function ingestDocumentIsolated(bytes: Uint8Array, options: IsolatedIngestOptions = {}, pool: ProcessPool = sharedPool()): Promise<Page[]> {
  const { timeoutMs, tenant, bounded, ...ingestOptions } = options;
  const module = join(process.cwd(), INGEST_MODULE);
  return pool.run<Page[]>({ module, exportName: "ingestDocument", args: [bytes, ingestOptions] }, { timeoutMs, tenant, bounded });
}

/**
 * A document read and analysed in a reader process (readInReader): the
 * pipeline runs there too, so only the analyze array and the page text come
 * back. Same errors as ingestDocumentIsolated.
 */
export function readIsolated(
  bytes: Uint8Array,
  options: ReaderOptions & Pick<IsolatedIngestOptions, "timeoutMs" | "tenant" | "bounded">,
  pool: ProcessPool = sharedPool(),
): Promise<ReaderResult> {
  const { timeoutMs, tenant, bounded, ...readerOptions } = options;
  const module = join(process.cwd(), READER_MODULE);
  return pool.run<ReaderResult>({ module, exportName: "readInReader", args: [bytes, readerOptions] }, { timeoutMs, tenant, bounded });
}
