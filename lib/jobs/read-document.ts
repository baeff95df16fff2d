import type { LayoutHint, PageText, Page, ReadingProgress, SplitResult } from "@/lib/analysis";
import { readIsolated } from "@/lib/readers/ingest-isolated";
import type { ProcessPool } from "@/lib/readers/pool";

export interface ReadOptions {
  fileName: string;
  evidence: boolean;
  maxPages: number;
  /** Whose document it is (an organization id): tenants take turns for the readers. */
  tenant?: string;
  /** Bring back every page's positioned lines too (the web app stores them; the API does not need them). */
  keepPages?: boolean;
  /** The organization's learned layouts: a document of one reads the taught fields where they were taught. */
  layoutHints?: LayoutHint[];
  /** Hears how far the reader has got while it reads. */
  onProgress?: (progress: ReadingProgress) => void;
}

export interface ReadDocument {
  /** Only when asked for (keepPages). */
  pages?: Page[];
  /** The analyze array, exactly as the API returns it. */
  result: SplitResult[];
  /** Each page's text and whether OCR read it: what the clause rules of an examination read. */
  pageText: PageText[];
  pageCount: number;
  durationMs: number;
}

/**
 * Bytes to the analyze array, the one way every caller does it (the job
 * worker, the CLI): read and analysed once in an isolated reader process
 * (time and memory caps), which sends back the array and the page text.
 */
export async function readDocument(bytes: Uint8Array, options: ReadOptions, pool: ProcessPool): Promise<ReadDocument> {
  const started = performance.now();
  const read = await readIsolated(
    bytes,
    { fileName: options.fileName, evidence: options.evidence, maxPages: options.maxPages, keepPages: options.keepPages ?? false, tenant: options.tenant, bounded: false, onProgress: options.onProgress, layoutHints: options.layoutHints },
    pool,
  );
  return { ...read, durationMs: Math.round(performance.now() - started) };
}
