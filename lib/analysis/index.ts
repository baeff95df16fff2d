/**
 * The engine's public surface: everything outside lib/analysis imports from
 * here and nowhere deeper (a Biome rule holds it).
 */
import { ingestDocument } from "./ingest";
import { analyzePages } from "./pipeline";
import type { AnalyzeOptions, SplitResult } from "./types";

export { AnalysisError, type AnalysisErrorCode } from "./errors";
export { DEFAULT_MAX_PAGES, ingestDocument, preloadPdfReader, type IngestOptions } from "./ingest";
export { FORMAT_MIME_TYPES, sniffFormat, type DocumentFormat } from "./ingest/sniff";
export { extractFields } from "./extract";
export { containerCheckDigit, isValidContainerNumber } from "./normalize/container";
export { analyzePages };
export type { AnalyzeOptions, Box, Evidence, LayoutHint, Line, Page, ReadingProgress, SplitResult, Word } from "./types";
export { fingerprintId, issuerKeyOf, layoutFingerprint, layoutSimilarity, type FingerprintLine } from "./taught/fingerprint";
export { locateValue, type TaughtPlace } from "./taught/place";
export { LAYOUT_MATCH_THRESHOLD } from "./taught/apply";
export {
  DOCUMENT_TYPE_IDS,
  DOCUMENT_TYPES,
  idOfLabel,
  labelOf,
  validateExtracted,
  type DocumentTypeId,
  type DocumentTypeLabel,
  type FieldKind,
} from "./schema";
export * from "./examine";
export { isIsoDate } from "./examine/fields";
export {
  analyzeForExamination,
  analyzeInProcess,
  examineFiles,
  type AnalysedFile,
  type AnalyzeFile,
  type ExamineFilesOptions,
  type PresentedFile,
} from "./examine/files";
export { pageTextsOf, splitTextOf, type PageText } from "./examine/page-text";

/**
 * Analyses one input file: every document found in it with its type, its pages
 * (1-based, in file order, each page in exactly one split) and its extracted
 * fields. Throws AnalysisError for input it cannot analyse.
 */
export async function analyzeDocument(bytes: Uint8Array, options: AnalyzeOptions = {}): Promise<SplitResult[]> {
  const pages = await ingestDocument(bytes, { maxPages: options.maxPages, onProgress: options.onProgress });
  return analyzePages(pages, options);
}
