import { readFile } from "node:fs/promises";
import type { Page } from "../types";
import type { IngestLimits } from "./limits";
import { resolveLimits } from "./limits";
import { rereadTurned, toPages } from "./ocr";
import { recognizeFile, type TesseractOptions } from "./ocr-tesseract";
import { withRenderedPages } from "./render";

/**
 * Scanned pages inside PDFs. A page whose text layer holds almost nothing is a
 * picture of a page (a scan, or a scan with only a stamp's or a scanner app's
 * line of text); it is rendered at OCR resolution and read. Digital pages of
 * the same file keep their text layer.
 */

/** Fewer letters and digits than this on a page and its text layer is not the page's text. */
export const MIN_TEXT_LAYER_CHARACTERS = 40;

export interface PdfOcrOptions extends TesseractOptions {
  limits?: Partial<IngestLimits>;
}

/** Whether a text-layer page carries too little text to be the page's content. */
export function needsOcr(page: Page): boolean {
  let characters = 0;
  for (const line of page.lines) characters += line.text.replace(/[^\p{L}\p{N}]/gu, "").length;
  return characters < MIN_TEXT_LAYER_CHARACTERS;
}

/** Renders and OCRs the given 1-based pages of a PDF; each Page keeps its number in the file. */
export async function ocrPdfPages(pdf: Uint8Array, pageNumbers: number[], options: PdfOcrOptions = {}): Promise<Page[]> {
  const limits = resolveLimits(options.limits);
  const pages = await withRenderedPages(pdf, pageNumbers, { maxPixels: limits.maxPixels, timeoutMs: options.timeoutMs }, async (rendered) => {
    const settings = { ...options, dpi: rendered.dpi };
    const [raw] = await recognizeFile(rendered.file, settings);
    if (!raw) return [];
    const best = await rereadTurned(raw, async () => new Uint8Array(await readFile(rendered.file)), settings);
    return toPages([best], { firstPageNumber: rendered.number, dpi: rendered.dpi });
  });
  return pages.flat();
}

/** The PDF's pages with every page that needs OCR replaced by its OCR reading. */
export async function fillScannedPages(pdf: Uint8Array, pages: Page[], options: PdfOcrOptions = {}): Promise<Page[]> {
  const scanned = pages.filter(needsOcr).map((page) => page.number);
  if (scanned.length === 0) return pages;
  const read = new Map((await ocrPdfPages(pdf, scanned, options)).map((page) => [page.number, page]));
  return pages.map((page) => read.get(page.number) ?? page);
}
