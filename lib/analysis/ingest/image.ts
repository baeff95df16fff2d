import type { Page, ReadingProgress } from "../types";
import { readImageFrames, type ImageFormat } from "./image-header";
import { resolveLimits, type IngestLimits } from "./limits";
import { chooseDpi, ocrImage } from "./ocr";
import type { TesseractOptions } from "./ocr-tesseract";

/**
 * Image files (PNG, JPEG, multi-frame TIFF, WebP): every frame is a page read
 * by OCR. The header is checked against the limits before anything decodes a
 * pixel; tesseract's own decoder (leptonica) then reads the file.
 */
export interface ImageIngestOptions extends TesseractOptions {
  limits?: Partial<IngestLimits>;
  firstPageNumber?: number;
  /** Told the frame count before OCR starts (tesseract reads every frame in one run, so no report per frame). */
  onProgress?: (progress: ReadingProgress) => void;
}

export async function ingestImage(bytes: Uint8Array, format: ImageFormat, options: ImageIngestOptions = {}): Promise<Page[]> {
  const limits = resolveLimits(options.limits);
  const frames = readImageFrames(bytes, format, limits);
  const first = frames[0]!;
  options.onProgress?.({ pagesDone: 0, pagesTotal: frames.length });
  // One resolution for the file: scanners write every frame of a TIFF at the same one.
  const dpi = chooseDpi(Math.min(first.width, first.height), first.dpi);
  return ocrImage(bytes, { ...options, dpi, firstPageNumber: options.firstPageNumber ?? 1 });
}
