import { pageTextsOf, type PageText, ingestDocument, analyzePages, preloadPdfReader, type LayoutHint, type Page, type ReadingProgress, type SplitResult } from "../analysis";

/**
 * What a reader process does with one document: ingest (parse, OCR) and the
 * pure pipeline, in the reader. The server then receives only the analyze
 * array and each page's text — a few kilobytes — instead of every positioned
 * line of every page, and its one thread (HTTP, the database, PGlite) never
 * runs the pipeline. `keepPages` asks for the pages too (the web app stores
 * them to draw where each value was found).
 */
export interface ReaderOptions {
  fileName: string;
  evidence: boolean;
  maxPages: number;
  keepPages: boolean;
  /** The organization's learned layouts (see LayoutHint). */
  layoutHints?: LayoutHint[];
}

export interface ReaderResult {
  result: SplitResult[];
  pageText: PageText[];
  pageCount: number;
  pages?: Page[];
}

// A reader imports this module before it says it is ready: PDFium's WebAssembly is compiled and
// instantiated now, once per reader, so that no job pays for it.
await preloadPdfReader();

/** `report`, when the pool passes one, hears the engine's progress (pages read of the file's pages). */
export async function readInReader(bytes: Uint8Array, options: ReaderOptions, report?: (progress: ReadingProgress) => void): Promise<ReaderResult> {
  const pages = await ingestDocument(bytes, { maxPages: options.maxPages, onProgress: report });
  const result = analyzePages(pages, { evidence: options.evidence, fileName: options.fileName, layoutHints: options.layoutHints });
  return {
    result,
    pageText: pageTextsOf(pages),
    pageCount: Math.max(0, ...pages.map((p) => p.number)),
    ...(options.keepPages ? { pages } : {}),
  };
}
