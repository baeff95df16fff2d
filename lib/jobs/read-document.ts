import { pageTextsOf, type PageText } from "@/lib/analysis/examine/page-text";
import { ingestDocumentIsolated } from "@/lib/analysis/isolate/ingest-isolated";
import type { ProcessPool } from "@/lib/analysis/isolate/pool";
import { analyzePages } from "@/lib/analysis/pipeline";
import type { Page, SplitResult } from "@/lib/analysis/types";

export interface ReadOptions {
  fileName: string;
  evidence: boolean;
  maxPages: number;
  /** Whose document it is (an organization id): tenants take turns for the readers. */
  tenant?: string;
}

export interface ReadDocument {
  pages: Page[];
  /** The analyze array, exactly as the API returns it. */
  result: SplitResult[];
  /** Each page's text and whether OCR read it: what the clause rules of an examination read. */
  pageText: PageText[];
  pageCount: number;
  durationMs: number;
}

/**
 * Bytes to the analyze array, the one way every caller does it (the job
 * worker, the CLI): read once in an isolated reader process (time and memory
 * caps), then the pure pipeline once, and the page text once.
 */
export async function readDocument(bytes: Uint8Array, options: ReadOptions, pool: ProcessPool): Promise<ReadDocument> {
  const started = performance.now();
  const pages = await ingestDocumentIsolated(bytes, { maxPages: options.maxPages, tenant: options.tenant, bounded: false }, pool);
  const result = analyzePages(pages, { evidence: options.evidence, fileName: options.fileName });
  return {
    pages,
    result,
    pageText: pageTextsOf(pages),
    pageCount: Math.max(0, ...pages.map((p) => p.number)),
    durationMs: Math.round(performance.now() - started),
  };
}
