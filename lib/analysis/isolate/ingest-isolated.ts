import { join } from "node:path";
import type { IngestOptions } from "../ingest";
import type { Page } from "../types";
import { DEFAULT_JOB_TIMEOUT_MS, ProcessPool } from "./pool";

/**
 * Ingestion (parsing and OCR) in the shared isolation pool. The analysis steps
 * after ingestion are pure functions over pages and run in the caller.
 */
export interface IsolatedIngestOptions extends IngestOptions {
  /** Wall-clock limit for reading the file, OCR included. */
  timeoutMs?: number;
}

/** One pool per server process, kept on globalThis so that Next's dev reloads reuse it. */
const POOL_KEY = Symbol.for("shipshape.isolation-pool");

export function sharedPool(): ProcessPool {
  const holder = globalThis as typeof globalThis & { [POOL_KEY]?: ProcessPool };
  holder[POOL_KEY] ??= new ProcessPool();
  return holder[POOL_KEY];
}

/** ingestDocument, run in an isolated child process with time and memory caps. */
export function ingestDocumentIsolated(bytes: Uint8Array, options: IsolatedIngestOptions = {}, pool: ProcessPool = sharedPool()): Promise<Page[]> {
  const { timeoutMs = DEFAULT_JOB_TIMEOUT_MS, ...ingestOptions } = options;
  // Sources are resolved from the project root (the working directory of `next start`, tsx and Vitest alike).
  const module = join(process.cwd(), "lib/analysis/ingest/index.ts");
  return pool.run<Page[]>({ module, exportName: "ingestDocument", args: [bytes, ingestOptions] }, timeoutMs);
}
