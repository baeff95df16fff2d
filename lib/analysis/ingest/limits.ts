import { AnalysisError } from "../errors";

/**
 * Caps on what one input may make the engine do. Hostile files are small on the
 * wire and huge once decoded (zip bombs, 50k×50k PNG headers, millions of MIME
 * parts), so every cap is checked before the expensive step it protects.
 */
export interface IngestLimits {
  /** Pages analysed in one document (PDF pages, TIFF frames, DOCX pages, e-mail pages in total). */
  maxPages: number;
  /** Pixels of one image (width × height), checked from the header before decoding and again before any enlargement. */
  maxPixels: number;
  /** Pixels along either side of one image (a strip within the pixel cap can still exhaust a decoder's row buffers). */
  maxImageSide: number;
  /** Long side over short side of one image. */
  maxAspectRatio: number;
  /** Bytes one input may inflate to (DOCX entries, e-mail parts after transfer decoding). */
  maxDecompressedBytes: number;
  /** MIME parts of one e-mail, nested messages included (this also bounds multipart nesting). */
  maxMimeParts: number;
  /** Messages attached inside messages (message/rfc822), the top-level message being depth 0. */
  maxNestingDepth: number;
  /** Entries of a ZIP container (DOCX). */
  maxZipEntries: number;
}

const DEFAULT_MAX_PAGES = 500;
/** ~40 MP: an A3 page at 400 dpi; larger is either a poster or an attack. */
const DEFAULT_MAX_PIXELS = 40_000_000;
/** A0 (46.8 in) at 350 dpi; also the widest a WebP or a canvas can be. */
const DEFAULT_MAX_IMAGE_SIDE = 16_384;
/** A till receipt or a fax roll is rarely longer than 1:8; beyond 1:10 an image is a strip, not a page. */
const DEFAULT_MAX_ASPECT_RATIO = 10;
const DEFAULT_MAX_DECOMPRESSED_BYTES = 200 * 1024 * 1024;
const DEFAULT_MAX_MIME_PARTS = 200;
/** ASVS 5.2 / the security checklist: message/rfc822 depth ≤ 3. */
const DEFAULT_MAX_NESTING_DEPTH = 3;
const DEFAULT_MAX_ZIP_ENTRIES = 2_000;

export const DEFAULT_LIMITS: Readonly<IngestLimits> = Object.freeze({
  maxPages: DEFAULT_MAX_PAGES,
  maxPixels: DEFAULT_MAX_PIXELS,
  maxImageSide: DEFAULT_MAX_IMAGE_SIDE,
  maxAspectRatio: DEFAULT_MAX_ASPECT_RATIO,
  maxDecompressedBytes: DEFAULT_MAX_DECOMPRESSED_BYTES,
  maxMimeParts: DEFAULT_MAX_MIME_PARTS,
  maxNestingDepth: DEFAULT_MAX_NESTING_DEPTH,
  maxZipEntries: DEFAULT_MAX_ZIP_ENTRIES,
});

/** How each limit is named in messages: the caller reads these, so plain words. */
const LIMIT_NAMES: Record<keyof IngestLimits, string> = {
  maxPages: "maximum pages",
  maxPixels: "maximum pixels per image",
  maxImageSide: "maximum pixels along an image's side",
  maxAspectRatio: "maximum aspect ratio of an image",
  maxDecompressedBytes: "maximum decompressed bytes",
  maxMimeParts: "maximum MIME parts",
  maxNestingDepth: "maximum nesting depth",
  maxZipEntries: "maximum archive entries",
};

/** The defaults with the caller's overrides; an override that is not a positive integer is ignored. */
export function resolveLimits(overrides?: Partial<IngestLimits>): IngestLimits {
  const limits: IngestLimits = { ...DEFAULT_LIMITS };
  for (const key of Object.keys(LIMIT_NAMES) as (keyof IngestLimits)[]) {
    const value = overrides?.[key];
    if (typeof value === "number" && Number.isInteger(value) && value > 0) limits[key] = value;
  }
  return limits;
}

/** Throws limit_exceeded naming the limit, its value and what the input asked for. */
export function assertWithinLimit(limits: IngestLimits, key: keyof IngestLimits, value: number, what?: string): void {
  const max = limits[key];
  if (value <= max) return;
  const subject = what ? ` (${what})` : "";
  throw new AnalysisError("limit_exceeded", `The input exceeds the ${LIMIT_NAMES[key]} limit of ${max}: it has ${value}${subject}.`);
}
