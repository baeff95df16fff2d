import { readFile } from "node:fs/promises";
import type { Page, ReadingProgress } from "../types";
import type { IngestLimits } from "./limits";
import { resolveLimits } from "./limits";
import { rereadTurned, toPages } from "./ocr";
import { recognizeFile, type TesseractOptions } from "./ocr-tesseract";
import { readPictureShares } from "./pdf";
import { hasSparseTextLayer } from "./sparse-page";
import { withRenderedPages } from "./render";

/**
 * Scanned pages inside PDFs. A page whose text layer holds almost nothing and
 * that is mostly covered by a picture is a picture of a page (a scan, or a scan
 * with only a stamp's or a scanner app's line of text); it is rendered at OCR
 * resolution and read. A sparse page without such a picture (a separator or
 * cover sheet, a blank back) is what it looks like and keeps its text layer,
 * as do the digital pages of the same file. Only sparse pages have their
 * drawing inspected, so digital pages pay nothing for the check.
 */

export { MIN_TEXT_LAYER_CHARACTERS, hasSparseTextLayer } from "./sparse-page";

/** A sparse page is a scan when pictures cover at least this share of it; logos, stamps and signatures cover far less. */
const MIN_SCAN_PICTURE_SHARE = 0.25;

export interface PdfOcrOptions extends TesseractOptions {
  limits?: Partial<IngestLimits>;
  /** Picture shares of sparse pages already read (readPdf); the others are read by opening the file again. */
  pictureShares?: ReadonlyMap<number, number>;
  /** Told the pages read so far: of the file (fillScannedPages), of the pages asked for (ocrPdfPages). */
  onProgress?: (progress: ReadingProgress) => void;
}

/** Numbers of the pages to OCR: sparse text layer over a picture of most of the page. */
export async function findScannedPages(pdf: Uint8Array, pages: Page[], known: ReadonlyMap<number, number> = new Map()): Promise<number[]> {
  const sparse = pages.filter(hasSparseTextLayer).map((page) => page.number);
  const read = await readPictureShares(pdf, sparse.filter((number) => !known.has(number)));
  return sparse.filter((number) => (known.get(number) ?? read.get(number) ?? 0) >= MIN_SCAN_PICTURE_SHARE);
}

/** Renders and OCRs the given 1-based pages of a PDF; each Page keeps its number in the file. */
async function ocrPdfPages(pdf: Uint8Array, pageNumbers: number[], options: PdfOcrOptions = {}): Promise<Page[]> {
  const limits = resolveLimits(options.limits);
  let pagesDone = 0;
  const pages = await withRenderedPages(pdf, pageNumbers, { maxPixels: limits.maxPixels }, async (rendered) => {
    const settings = { ...options, dpi: rendered.dpi };
    const [raw] = await recognizeFile(rendered.file, settings);
    if (!raw) return [];
    const best = await rereadTurned(raw, async () => new Uint8Array(await readFile(rendered.file)), settings);
    const read = toPages([best], { firstPageNumber: rendered.number, dpi: rendered.dpi });
    options.onProgress?.({ pagesDone: ++pagesDone, pagesTotal: pageNumbers.length });
    return read;
  });
  return pages.flat();
}

/** The PDF's pages with every page that needs OCR replaced by its OCR reading. */
export async function fillScannedPages(pdf: Uint8Array, pages: Page[], options: PdfOcrOptions = {}): Promise<Page[]> {
  const scanned = await findScannedPages(pdf, pages, options.pictureShares);
  // The pages with a text layer are read already; each scanned page counts once OCR has read it.
  const alreadyRead = pages.length - scanned.length;
  const report = options.onProgress;
  report?.({ pagesDone: alreadyRead, pagesTotal: pages.length });
  if (scanned.length === 0) return pages;
  const onProgress = report && ((ocr: ReadingProgress) => report({ pagesDone: alreadyRead + ocr.pagesDone, pagesTotal: pages.length }));
  const read = new Map((await ocrPdfPages(pdf, scanned, { ...options, onProgress })).map((page) => [page.number, page]));
  return pages.map((page) => read.get(page.number) ?? page);
}
