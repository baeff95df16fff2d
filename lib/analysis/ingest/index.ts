import { AnalysisError } from "../errors";
import type { Page } from "../types";
import { ingestPdf } from "./pdf";
import { sniffFormat, type DocumentFormat } from "./sniff";

/** Pages analysed in one input unless the caller says otherwise. */
export const DEFAULT_MAX_PAGES = 500;

export interface IngestOptions {
  maxPages?: number;
}

/** How each format is named to the caller. */
const FORMAT_NAMES: Record<DocumentFormat, string> = {
  pdf: "PDF",
  docx: "Word (DOCX)",
  eml: "e-mail (EML)",
  png: "PNG image",
  jpeg: "JPEG image",
  tiff: "TIFF image",
  webp: "WebP image",
};

/** Reads any supported input into pages of positioned text. The format comes from the bytes, never a name. */
export async function ingestDocument(bytes: Uint8Array, options: IngestOptions = {}): Promise<Page[]> {
  const maxPages = options.maxPages ?? DEFAULT_MAX_PAGES;
  if (bytes.length === 0) throw new AnalysisError("empty", "The file is empty (0 bytes).");
  const format = sniffFormat(bytes);
  switch (format) {
    case "pdf":
      return ingestPdf(bytes, { maxPages });
    case undefined:
      throw new AnalysisError("unsupported_format", "The file's format is not recognised; send a PDF.");
    default:
      throw new AnalysisError("unsupported_format", `${FORMAT_NAMES[format]} files are not supported yet; send a PDF.`);
  }
}
