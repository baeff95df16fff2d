// The worker module registers itself on globalThis.pdfjsWorker; pdfjs then runs it
// on the main thread instead of fetching a worker file (no paths, works when bundled).
import "pdfjs-dist/legacy/build/pdf.worker.mjs";
import { getDocument, VerbosityLevel } from "pdfjs-dist/legacy/build/pdf.mjs";
import type { PDFDocumentProxy, PDFPageProxy } from "pdfjs-dist/legacy/build/pdf.mjs";
import { AnalysisError } from "../errors";
import type { Page, Word } from "../types";
import { cleanText } from "./clean-text";
import { groupLines, orderLines } from "./layout";
import { pictureShareOrWhole } from "./pdf-pictures";
import { hasSparseTextLayer } from "./sparse-page";

/** Top of a glyph box above the baseline, as a share of the font size (typical Latin ascent). */
const ASCENT_SHARE = 0.8;
/** Glyph box height as a share of the font size (ascent plus descent). */
const GLYPH_HEIGHT_SHARE = 1.0;

/** An item with something other than white space in it. */
const NOT_BLANK = /\S/;
/** A word: a run of characters other than white space. */
const WORD = /\S+/g;
/** Ligatures (ﬁ), full-width forms and other compatibility characters are folded (NFKC) in items that have any. */
const NON_ASCII = /[^\u0000-\u007f]/;

export interface PdfIngestOptions {
  /** More pages than this is refused with limit_exceeded before any page is read. */
  maxPages: number;
}

interface RawItem {
  str: string;
  transform: number[];
  width: number;
}

export interface PdfReading {
  pages: Page[];
  /**
   * Picture share (see pdf-pictures.ts) of each page whose text layer is sparse,
   * read while the file is open anyway: whether such a page is a scan to OCR.
   */
  pictureShares: Map<number, number>;
}

/** Reads a PDF's text layer into pages of positioned words and ordered lines. */
export async function ingestPdf(bytes: Uint8Array, options: PdfIngestOptions): Promise<Page[]> {
  return (await readPdf(bytes, options)).pages;
}

/** The text-layer pages, and how much of each sparse page pictures cover. */
export async function readPdf(bytes: Uint8Array, options: PdfIngestOptions): Promise<PdfReading> {
  const { maxPages } = options;
  const doc = await openPdf(bytes);
  try {
    if (doc.numPages > maxPages) {
      throw new AnalysisError(
        "limit_exceeded",
        `The document has ${doc.numPages} pages; at most ${maxPages} pages can be analysed at once.`,
      );
    }
    const pages: Page[] = [];
    const pictureShares = new Map<number, number>();
    for (let n = 1; n <= doc.numPages; n++) pages.push(await readPage(doc, n, pictureShares));
    return { pages, pictureShares };
  } finally {
    await doc.destroy();
  }
}

/** Opens a PDF for reading; the caller destroys it. Typed errors for encrypted and damaged files. */
export async function openPdf(bytes: Uint8Array): Promise<PDFDocumentProxy> {
  // pdfjs takes ownership of (and may detach) the buffer it is given: pass a copy.
  const task = getDocument({
    data: bytes.slice(),
    isEvalSupported: false,
    useSystemFonts: false,
    disableFontFace: true,
    stopAtErrors: false,
    verbosity: VerbosityLevel.ERRORS,
  });
  try {
    return await task.promise;
  } catch (error) {
    await task.destroy().catch(() => undefined);
    if (error instanceof Error && error.name === "PasswordException") {
      throw new AnalysisError("encrypted", "The PDF is password-protected; remove the password and upload it again.");
    }
    throw new AnalysisError("unreadable", "The file is not a readable PDF: it is damaged or truncated.");
  }
}

async function readPage(doc: PDFDocumentProxy, number: number, pictureShares: Map<number, number>): Promise<Page> {
  let page: PDFPageProxy;
  try {
    page = await doc.getPage(number);
  } catch {
    throw new AnalysisError("unreadable", `Page ${number} of the PDF cannot be read.`, number);
  }
  try {
    const viewport = page.getViewport({ scale: 1 });
    // pdfjs's own Unicode normalisation costs a third of text extraction; only
    // non-ASCII items need it, so it is done here for those alone.
    const content = await page.getTextContent({ disableNormalization: true });
    const words: Word[] = [];
    for (const item of content.items) {
      if ("str" in item && NOT_BLANK.test(item.str)) pushWords(item as RawItem, viewport.transform, words);
    }
    const lines = orderLines(groupLines(words));
    const read: Page = { number, width: viewport.width, height: viewport.height, lines, source: "text-layer" };
    // Only sparse pages have their drawing read: digital pages pay nothing for the scan check.
    if (hasSparseTextLayer(read)) pictureShares.set(number, await pictureShareOrWhole(page));
    return read;
  } catch (error) {
    if (error instanceof AnalysisError) throw error;
    throw new AnalysisError("unreadable", `Page ${number} of the PDF cannot be read.`, number);
  } finally {
    page.cleanup();
  }
}

/** Length of the vector (a, b); exact and quick for the axis-aligned text that most pages hold. */
function lengthOf(a: number, b: number): number {
  if (b === 0) return Math.abs(a);
  if (a === 0) return Math.abs(b);
  return Math.hypot(a, b);
}

/**
 * Splits one text item into words. pdfjs gives only the item's origin and total
 * width, so each word's x is estimated from its character offset in the item.
 */
function pushWords(item: RawItem, viewportTransform: number[], out: Word[]): void {
  // The item's matrix in viewport space (Util.transform(viewportTransform, item.transform), without the array).
  const [v0 = 1, v1 = 0, v2 = 0, v3 = 1, v4 = 0, v5 = 0] = viewportTransform;
  const [t0 = 1, t1 = 0, t2 = 0, t3 = 1, t4 = 0, t5 = 0] = item.transform;
  const m0 = v0 * t0 + v2 * t1;
  const m1 = v1 * t0 + v3 * t1;
  const m2 = v0 * t2 + v2 * t3;
  const m3 = v1 * t2 + v3 * t3;
  const fontSize = lengthOf(m2, m3) || lengthOf(m0, m1);
  if (!(fontSize > 0)) return;
  // Direction of the baseline in viewport space (1,0 for ordinary text).
  const scaleX = lengthOf(m0, m1) || 1;
  const dirX = m0 / scaleX;
  const dirY = m1 / scaleX;
  const itemWidth = item.width * lengthOf(v0, v1);
  // Control characters become spaces here, so that they separate words as a reader would see them.
  const str = cleanText(NON_ASCII.test(item.str) ? item.str.normalize("NFKC") : item.str);
  const perChar = itemWidth / str.length;
  const originX = v0 * t4 + v2 * t5 + v4;
  const originY = v1 * t4 + v3 * t5 + v5;
  const height = GLYPH_HEIGHT_SHARE * fontSize;
  const rise = ASCENT_SHARE * fontSize;
  WORD.lastIndex = 0;
  for (let match = WORD.exec(str); match; match = WORD.exec(str)) {
    const offset = match.index * perChar;
    const width = match[0].length * perChar;
    const baseX = originX + dirX * offset;
    const baseY = originY + dirY * offset;
    out.push({
      text: match[0],
      x: dirX >= 0 ? baseX : baseX - width,
      y: baseY - rise,
      width,
      height,
      fontSize,
      confidence: 1,
    });
  }
}
