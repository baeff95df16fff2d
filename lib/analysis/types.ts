import type { DocumentTypeId, DocumentTypeLabel } from "./schema";
import type { FingerprintLine } from "./taught/fingerprint";
import type { TaughtPlace } from "./taught/place";

/** A box on a page as fractions of the page's width and height, origin top-left: [x0, y0, x1, y1]. */
export type Box = [number, number, number, number];

/** One word as read from a text layer or OCR. Coordinates in page units (PDF points), origin top-left. */
export interface Word {
  text: string;
  x: number;
  y: number;
  width: number;
  height: number;
  fontSize: number;
  /** 0..1; 1 for a digital text layer. */
  confidence: number;
}

/** Words that sit on one baseline and belong together (not across a wide column gap). */
export interface Line {
  text: string;
  words: Word[];
  x: number;
  y: number;
  width: number;
  height: number;
  fontSize: number;
}

/** A page of positioned text, whatever the input format. `number` is 1-based in file order. */
export interface Page {
  number: number;
  width: number;
  height: number;
  /** Lines in reading order. */
  lines: Line[];
  /** Where the text came from. */
  source: "text-layer" | "ocr" | "docx" | "email" | "plain";
}

/** Where an extracted value was read. */
export interface Evidence {
  page: number;
  bbox: Box;
  text: string;
  confidence: number;
  /** Read where a checker taught this layout's value (LayoutHint), not by the engine's own rules. */
  taught?: { layout: string; source: string };
}

/**
 * A layout taught by correcting a value on one of its documents (the app
 * keeps them per organization): the document type, the issuer (issuerKeyOf),
 * the labels' places (layoutFingerprint) and, per field, where its value sits.
 */
export interface LayoutHint {
  id: string;
  documentType: DocumentTypeId;
  issuer: string;
  fingerprint: FingerprintLine[];
  /** Per taught field, where its value sits and where it was taught, in words ("invoice.pdf p. 1, set LC 5120"), carried into the evidence. */
  fields: Record<string, TaughtPlace & { source: string }>;
}

/** One element of the analyze array: exactly the public contract, plus evidence when asked for. */
export interface SplitResult {
  split: { document_type: DocumentTypeLabel; pages: number[] };
  extracted: Record<string, unknown>;
  evidence?: Record<string, Evidence>;
}

export interface AnalyzeOptions {
  /** Attach per-key evidence (page, box, raw text, confidence) to every split. */
  evidence?: boolean;
  /** The file name as given by the caller: a hint only, never trusted for the format. */
  fileName?: string;
  /** More pages than this is refused with limit_exceeded (default DEFAULT_MAX_PAGES, 500). */
  maxPages?: number;
  /** Layouts taught by an organization's checkers: a matching document reads the taught fields at their places. */
  layoutHints?: LayoutHint[];
  /** Told how far reading has got (see ReadingProgress); must not throw. */
  onProgress?: (progress: ReadingProgress) => void;
}

/**
 * How far the reading of one file has got: pages read of the file's pages.
 * Reported once the page count is known (pages with a text layer count as read
 * at once), after each scanned page is read by OCR, and when every page is read.
 */
export interface ReadingProgress {
  pagesDone: number;
  pagesTotal: number;
}

export type { DocumentTypeLabel };
