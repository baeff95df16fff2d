import { ingestDocument } from "./ingest";
import { analyzePages } from "./pipeline";
import type { AnalyzeOptions, SplitResult } from "./types";

export { AnalysisError, type AnalysisErrorCode } from "./errors";
export { DEFAULT_MAX_PAGES } from "./ingest";
export { analyzePages };
export type { AnalyzeOptions, Evidence, Page, SplitResult } from "./types";

/**
 * Analyses one input file: every document found in it with its type, its pages
 * (1-based, in file order, each page in exactly one split) and its extracted
 * fields. Throws AnalysisError for input it cannot analyse.
 */
export async function analyzeDocument(bytes: Uint8Array, options: AnalyzeOptions = {}): Promise<SplitResult[]> {
  const pages = await ingestDocument(bytes, { maxPages: options.maxPages });
  return analyzePages(pages, options);
}
