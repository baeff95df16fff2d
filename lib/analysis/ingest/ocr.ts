import type { Page, Word } from "../types";
import { groupLines, orderLines } from "./layout";
import { resolveLimits, type IngestLimits } from "./limits";
import { detectOrientation, uprightPage, type UprightPage, type UprightWord } from "./ocr-geometry";
import { recognizeImage, type OcrRawPage, type TesseractOptions } from "./ocr-tesseract";
import { scaleImage, turnImage } from "./ocr-turn";

/**
 * OCR to pages of positioned text: the same Page shape as a PDF text layer,
 * in points with origin top-left on the upright page, each word keeping its
 * OCR confidence so that evidence can say how sure a value is.
 */
export interface OcrOptions extends TesseractOptions {
  /** Number of the first page produced (1-based, in the whole input). */
  firstPageNumber?: number;
  /**
   * Resolution of the image. Known exactly for rendered PDF pages; for image
   * files it comes from the header, or is inferred from the page width.
   */
  dpi?: number;
  /** The pixel caps an enlarged image is held to (maxPixels, maxImageSide). */
  limits?: Partial<IngestLimits>;
}

const POINTS_PER_INCH = 72;
/** A document photo or scan is nearly always A4 or Letter wide (8.27–8.5 in). */
const ASSUMED_PAGE_WIDTH_INCHES = 8.27;
/** A stated resolution is believed when the page it implies is 4–17 in wide (postcard to A3 landscape). */
const MIN_PLAUSIBLE_WIDTH_INCHES = 4;
const MAX_PLAUSIBLE_WIDTH_INCHES = 17;
/**
 * Where a word's ink reaches, in ems, by the letters it holds (Helvetica/Arial
 * metrics, the commonest faces of trade forms): capitals and digits reach the cap
 * height, b d f h k l and dotted i j the ascender, other small letters the
 * x-height; g j p q y, brackets and a comma go below the baseline. Tesseract
 * boxes ink, so a box's height over its word's reach is the word's font size,
 * whatever mix of letters the line holds.
 */
const CAP_HEIGHT_EM = 0.716;
/** A capital with an accent above it (É, Ô). */
const ACCENTED_CAP_EM = 0.9;
const ASCENDER_EM = 0.73;
const T_HEIGHT_EM = 0.66;
const X_HEIGHT_EM = 0.519;
const DESCENDER_EM = 0.21;
/** A comma or semicolon's tail. */
const TAIL_EM = 0.12;
const ASCENDING = new Set([..."bdfhklij()[]{}/\\|!?&@#%$"]);
const DESCENDING = new Set([..."gjpqy()[]{}|"]);

/** How far a word's ink reaches from top to bottom in ems; undefined for a word of marks alone. */
export function inkReachEm(text: string): number | undefined {
  let top = 0;
  let bottom = 0;
  for (const ch of text) {
    const ascii = ch <= "\x7f";
    if (/\p{Lu}/u.test(ch)) top = Math.max(top, ascii ? CAP_HEIGHT_EM : ACCENTED_CAP_EM);
    else if (/\p{N}/u.test(ch)) top = Math.max(top, CAP_HEIGHT_EM);
    else if (ASCENDING.has(ch) || (!ascii && /\p{Ll}/u.test(ch))) top = Math.max(top, ASCENDER_EM);
    else if (ch === "t") top = Math.max(top, T_HEIGHT_EM);
    else if (/\p{Ll}/u.test(ch)) top = Math.max(top, X_HEIGHT_EM);
    if (DESCENDING.has(ch)) bottom = DESCENDER_EM;
    else if (ch === "," || ch === ";") bottom = Math.max(bottom, TAIL_EM);
  }
  return top > 0 ? top + bottom : undefined;
}

/** Words of a tesseract line whose bottoms lie within this share of the line's median word height of its median bottom share one baseline. */
const BASELINE_SNAP_PER_HEIGHT = 0.45;
/** Below this mean word confidence a page is taken as misread (upright pages: 80–95; upside-down: 30–40). */
const MISREAD_MEAN_CONFIDENCE = 60;
/** Fewer words than this say nothing about orientation (a stamp, a signature). */
const MIN_WORDS_TO_JUDGE = 20;
/**
 * Words read with less confidence are specks, stamps and signatures more often
 * than text. Real words in table cells are often read right at 15–20, so a word
 * with a letter or digit needs little; bare punctuation needs much more.
 */
const MIN_WORD_CONFIDENCE = 10;
const MIN_SYMBOL_CONFIDENCE = 60;
/** A word of marks alone whose box is smaller than this share of its line's font size both ways is a speck. */
const MAX_SPECK_EM = 0.15;

function isKept(word: UprightWord): boolean {
  return word.confidence >= (/[\p{L}\p{N}]/u.test(word.text) ? MIN_WORD_CONFIDENCE : MIN_SYMBOL_CONFIDENCE);
}

/**
 * Marks that specks, dust and table rules are read as: quotes, underscores,
 * bars, tildes, bullets. Printed forms almost never start or end a word with
 * them, and a dot, comma or one of them standing alone is a speck, never text.
 */
const STRAY_EDGES = /^[‘’“”"'`´_|~«»•¬]+|[‘’“”"'`´_|~«»•¬]+$/gu;
const SPECK_ONLY = /^[‘’“”"'`´_|~«»•¬.,;]+$/u;

/** Letters OCR reads for a digit ("2l0429", "105-O004"); between two digits they are never letters. */
const ONE_BETWEEN_DIGITS = /(?<=\d)[lI|](?=\d)/g;
const ZERO_BETWEEN_DIGITS = /(?<=\d)[O](?=\d)/g;

/** A recognised word with a letter read for a digit between digits put back: "ILCAE0022l000098" → "ILCAE00221000098". */
export function fixDigitConfusions(text: string): string {
  return text.replace(ONE_BETWEEN_DIGITS, "1").replace(ZERO_BETWEEN_DIGITS, "0");
}

/** A word's text without the marks specks leave at its edges; empty when it is a speck. */
export function cleanOcrText(text: string): string {
  if (SPECK_ONLY.test(text)) return "";
  return fixDigitConfusions(text.replace(STRAY_EDGES, ""));
}

/** The resolution to believe for an image: the stated one when plausible, else one that makes the page A4 wide. */
export function chooseDpi(narrowSide: number, statedDpi?: number): number {
  if (statedDpi && statedDpi > 0) {
    const inches = narrowSide / statedDpi;
    if (inches >= MIN_PLAUSIBLE_WIDTH_INCHES && inches <= MAX_PLAUSIBLE_WIDTH_INCHES) return statedDpi;
  }
  return narrowSide / ASSUMED_PAGE_WIDTH_INCHES;
}

/** A tesseract line's words in points; they share the line's font size so the layout's gap rules see one size. */
function toWords(line: UprightWord[], scale: number): Word[] {
  const kept = line.filter(isKept).map((w) => ({ ...w, text: cleanOcrText(w.text) })).filter((w) => w.text.length > 0);
  if (kept.length === 0) return [];
  // Each word's size from its box and its letters; the line's is the lower median, since a box only ever
  // grows (a rule or a speck touching the word, a skewed line), never shrinks.
  const sizes = kept.flatMap((w) => {
    const reach = inkReachEm(w.text);
    return reach ? [(w.height * scale) / reach] : [];
  }).sort((a, b) => a - b);
  const heights = kept.map((w) => w.height).sort((a, b) => a - b);
  const medianHeight = heights[Math.floor(heights.length / 2)]!;
  const fontSize = sizes[Math.floor((sizes.length - 1) / 2)] ?? (medianHeight * scale) / CAP_HEIGHT_EM;
  // Box bottoms differ by descenders and brackets ("(exporter's", "copy)"); the layout groups rows by
  // bottoms, so the words of one tesseract line near its median bottom are set on that one baseline.
  const bottoms = kept.map((w) => w.top + w.height).sort((a, b) => a - b);
  const baseline = bottoms[Math.floor(bottoms.length / 2)]!;
  const onBaseline = (w: UprightWord) => Math.abs(w.top + w.height - baseline) <= BASELINE_SNAP_PER_HEIGHT * medianHeight && baseline > w.top;
  // A mark no larger than a speck beside text of this size is one (a 3 × 4 px "-" before a title), while
  // a printed dash or slash is at least a third of an em wide and a colon half an em tall.
  const speck = (w: UprightWord) => !/[\p{L}\p{N}]/u.test(w.text) && Math.max(w.width, w.height) * scale < MAX_SPECK_EM * fontSize;
  return kept.filter((w) => !speck(w)).map((w) => ({
    text: w.text,
    x: w.left * scale,
    y: w.top * scale,
    width: w.width * scale,
    height: (onBaseline(w) ? baseline - w.top : w.height) * scale,
    fontSize,
    confidence: w.confidence / 100,
  }));
}

/** An upright page in pixels to a Page in points, its lines built and ordered as a text layer's are. */
export function toPage(page: UprightPage, number: number, dpi: number): Page {
  const scale = POINTS_PER_INCH / dpi;
  const words = page.lines.flatMap((line) => toWords(line, scale));
  return { number, width: page.width * scale, height: page.height * scale, lines: orderLines(groupLines(words)), source: "ocr" };
}

/** Raw OCR pages to Pages numbered from `firstPageNumber`. */
export function toPages(raw: OcrRawPage[], options: OcrOptions): Page[] {
  const first = options.firstPageNumber ?? 1;
  return raw.map((rawPage, i) => {
    const upright = uprightPage(rawPage);
    const dpi = options.dpi ?? chooseDpi(Math.min(upright.width, upright.height));
    return toPage(upright, first + i, dpi);
  });
}

/** Mean word confidence (0..100) of a raw page; 0 when it has no words. */
function meanConfidence(page: OcrRawPage): number {
  const words = page.lines.flat();
  return words.length === 0 ? 0 : words.reduce((sum, w) => sum + w.confidence, 0) / words.length;
}

/**
 * Tesseract's line finder misses text much taller than body text at 300 dpi
 * (a separator sheet's 40 pt "additional copy of documents for bank file", a
 * stamp): such a page reads as specks and small print. A page with fewer than
 * MIN_CONFIDENT_WORDS words read confidently is read again at LARGE_TEXT_SCALE
 * of its resolution (a quarter of the pixels), where large text is body-sized.
 */
const MIN_CONFIDENT_WORDS = 10;
const CONFIDENT_WORD = 80;
const LARGE_TEXT_SCALE = 0.5;
/** The smaller reading is taken when it reads at least this many more words confidently (not a chance word of specks). */
const MIN_GAINED_WORDS = 4;

/** Words read confidently that hold three letters or digits: real text, not specks. */
function confidentWords(page: OcrRawPage): number {
  return page.lines.flat().filter((w) => w.confidence >= CONFIDENT_WORD && /[\p{L}\p{N}]{3}/u.test(w.text)).length;
}

/** A raw page read from an image scaled by `factor`, with its boxes put back in the original image's pixels. */
function unscale(page: OcrRawPage, factor: number, width: number, height: number): OcrRawPage {
  const back = (v: number) => v / factor;
  return { width, height, lines: page.lines.map((line) => line.map((w) => ({ ...w, left: back(w.left), top: back(w.top), width: back(w.width), height: back(w.height) }))) };
}

/** The reading at LARGE_TEXT_SCALE when it finds clearly more confident words than `raw`; otherwise `raw`. */
async function rereadSmaller(raw: OcrRawPage, bytes: Uint8Array, options: TesseractOptions): Promise<OcrRawPage> {
  const small = await scaleImage(bytes, () => LARGE_TEXT_SCALE);
  if (!small) return raw;
  const [candidate] = await recognizeImage(small.bytes, { ...options, dpi: options.dpi ? options.dpi * LARGE_TEXT_SCALE : undefined });
  if (!candidate) return raw;
  const restored = unscale(candidate, LARGE_TEXT_SCALE, raw.width, raw.height);
  return confidentWords(restored) >= confidentWords(raw) + MIN_GAINED_WORDS ? restored : raw;
}

function isSparse(page: OcrRawPage): boolean {
  return confidentWords(page) < MIN_CONFIDENT_WORDS;
}

/** A page with enough words read mostly wrong: text lying in an orientation tesseract did not detect. */
function isMisread(page: OcrRawPage): boolean {
  return page.lines.flat().length >= MIN_WORDS_TO_JUDGE && meanConfidence(page) < MISREAD_MEAN_CONFIDENCE;
}

/** Clockwise quarter turns that bring a page lying at `orientation` upright. */
const UPRIGHT_TURNS = { 90: 3, 180: 2, 270: 1 } as const;

/**
 * Tesseract reads a page lying upside down or sideways through its orientation
 * detection, but drops and misreads more of it than of the same page upright
 * (whole rows of a form's noisy scan went missing). A page it read turned is
 * read again turned upright; the upright reading is kept unless it is less sure.
 */
async function rereadUpright(raw: OcrRawPage, bytes: Uint8Array, options: TesseractOptions): Promise<OcrRawPage> {
  const orientation = detectOrientation(raw);
  if (orientation === 0) return raw;
  const turned = await turnImage(bytes, UPRIGHT_TURNS[orientation]);
  if (!turned) return raw;
  const [candidate] = await recognizeImage(turned, options);
  return candidate && confidentWords(candidate) >= confidentWords(raw) ? candidate : raw;
}

/**
 * Reads a page again where the first reading shows tesseract missed it: a
 * reading of a page lying turned again upright, a nearly empty reading at half
 * resolution (text too large), a misread one turned upside down, then
 * sideways, until one reading is confident; keeps the most confident. Costs OCR
 * only on such pages.
 */
export async function rereadTurned(raw: OcrRawPage, image: () => Promise<Uint8Array>, options: TesseractOptions): Promise<OcrRawPage> {
  const sparse = isSparse(raw);
  if (!sparse && !isMisread(raw)) {
    return raw.lines.flat().length >= MIN_WORDS_TO_JUDGE && detectOrientation(raw) !== 0 ? rereadUpright(raw, await image(), options) : raw;
  }
  const bytes = await image();
  let best = raw;
  if (sparse) {
    best = await rereadSmaller(raw, bytes, options);
    if (best !== raw || !isMisread(best)) return best;
  }
  for (const turns of [2, 1, 3] as const) {
    const turned = await turnImage(bytes, turns);
    if (!turned) return best;
    const [candidate] = await recognizeImage(turned, options);
    if (candidate && meanConfidence(candidate) > meanConfidence(best)) best = candidate;
    if (!isMisread(best)) break;
  }
  return best;
}

/**
 * Tesseract's models are trained on text about 300 dpi; phone photos and faxes
 * come at 100–200. Below LOW_RESOLUTION_DPI an image is enlarged to
 * OCR_RESOLUTION_DPI before reading (measured on 150 dpi photos of generated
 * pages: word recall 0.934 → 0.948, for about 1.5× the OCR time of the small image).
 */
const LOW_RESOLUTION_DPI = 200;
const OCR_RESOLUTION_DPI = 300;
/** The most an image is enlarged: a 100 dpi fax to 300 dpi. A lower stated resolution gains nothing from more. */
const MAX_ENLARGEMENT = 3;
/** Enlargements this close to 1 are not worth a decode and an encode. */
const MIN_ENLARGEMENT = 1.05;

/**
 * How much to enlarge a `width` × `height` image at `dpi` before OCR: towards
 * OCR_RESOLUTION_DPI, at most MAX_ENLARGEMENT, and never past the pixel or
 * side caps. The header check (image-header.ts) saw the image before this
 * enlargement; this holds the enlarged canvas to the same caps. 1 = as is.
 */
export function enlargementFactor(width: number, height: number, dpi: number, limits: Pick<IngestLimits, "maxPixels" | "maxImageSide">): number {
  if (dpi >= LOW_RESOLUTION_DPI) return 1;
  const wanted = Math.min(OCR_RESOLUTION_DPI / dpi, MAX_ENLARGEMENT);
  const fitsPixels = Math.sqrt(limits.maxPixels / (width * height));
  const fitsSide = limits.maxImageSide / Math.max(width, height);
  // Floored to 1/1000 so that rounding each side to whole pixels cannot push the canvas past a cap.
  const factor = Math.floor(Math.min(wanted, fitsPixels, fitsSide) * 1000) / 1000;
  return factor >= MIN_ENLARGEMENT ? factor : 1;
}

/** The image enlarged towards OCR resolution when it is below it; undefined when it is not, or cannot be decoded here (TIFF). */
async function enlargeLowResolution(bytes: Uint8Array, options: OcrOptions): Promise<{ bytes: Uint8Array; dpi: number } | undefined> {
  const dpi = options.dpi;
  if (!dpi || dpi >= LOW_RESOLUTION_DPI) return undefined;
  const limits = resolveLimits(options.limits);
  const enlarged = await scaleImage(bytes, (width, height) => enlargementFactor(width, height, dpi, limits));
  return enlarged ? { bytes: enlarged.bytes, dpi: dpi * enlarged.factor } : undefined;
}

/** OCRs an encoded image at the resolution it has, reading a single image again when it lies turned. */
async function readImage(bytes: Uint8Array, options: OcrOptions): Promise<Page[]> {
  const raw = await recognizeImage(bytes, options);
  // Frames of a multi-frame TIFF cannot be turned one by one here; single images can.
  const [only] = raw;
  if (raw.length === 1 && only) return toPages([await rereadTurned(only, async () => bytes, options)], options);
  return toPages(raw, options);
}

/**
 * OCRs an encoded image (PNG, JPEG, WebP, or TIFF with all its frames) into
 * pages, enlarged once when its resolution is low. Callers check the header
 * against the limits first (image.ts).
 */
export async function ocrImage(bytes: Uint8Array, options: OcrOptions = {}): Promise<Page[]> {
  const enlarged = await enlargeLowResolution(bytes, options);
  return enlarged ? readImage(enlarged.bytes, { ...options, dpi: enlarged.dpi }) : readImage(bytes, options);
}
