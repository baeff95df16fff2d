import { AnalysisError } from "../errors";
import type { Page, ReadingProgress } from "../types";
import { cleanPages } from "./clean-text";
import { ingestDocx } from "./docx";
import { ingestEml } from "./eml";
import { ingestImage } from "./image";
import type { IngestLimits } from "./limits";
import { fillScannedPages } from "./ocr-pdf";
import { readPdf } from "./pdf";
import { sniffFormat } from "./sniff";

export { preloadPdfium as preloadPdfReader } from "./pdfium-module";

/** Pages analysed in one input unless the caller says otherwise. */
export const DEFAULT_MAX_PAGES = 500;

export interface IngestOptions {
  maxPages?: number;
  /** Pixels, decompressed bytes, MIME parts, nesting (see limits.ts); maxPages above wins over limits.maxPages. */
  limits?: Partial<IngestLimits>;
  /** Told how far reading has got: per scanned PDF page, and once every page is read (see ReadingProgress). */
  onProgress?: (progress: ReadingProgress) => void;
}

/**
 * Reads any supported input into pages of positioned text. The format comes
 * from the bytes, never a name. Whatever the format, no control character or
 * lone surrogate is left in the text (see ./clean-text).
 */
export async function ingestDocument(bytes: Uint8Array, options: IngestOptions = {}): Promise<Page[]> {
  const pages = cleanPages(await readPages(bytes, options));
  options.onProgress?.({ pagesDone: pages.length, pagesTotal: pages.length });
  return pages;
}

async function readPages(bytes: Uint8Array, options: IngestOptions): Promise<Page[]> {
  const maxPages = options.maxPages ?? DEFAULT_MAX_PAGES;
  if (bytes.length === 0) throw new AnalysisError("empty", "The file is empty (0 bytes).");
  const format = sniffFormat(bytes);
  const limits = { ...options.limits, maxPages };
  switch (format) {
    case "pdf": {
      const { pages, pictureShares } = await readPdf(bytes, { maxPages });
      return fillScannedPages(bytes, pages, { limits, pictureShares, onProgress: options.onProgress });
    }
    case "docx":
      return ingestDocx(bytes, { limits });
    case "eml":
      return ingestEml(bytes, { limits });
    case "png":
    case "jpeg":
    case "tiff":
    case "webp":
      return ingestImage(bytes, format, { limits, onProgress: options.onProgress });
    case undefined:
      throw new AnalysisError("unsupported_format", "The file's format is not recognised; send a PDF, Word (DOCX), e-mail (EML) or image (PNG, JPEG, TIFF, WebP) file.");
  }
}
