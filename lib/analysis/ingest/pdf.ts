import { AnalysisError } from "../errors";
import type { Page } from "../types";
import { groupLines, orderLines } from "./layout";
import { pictureShare } from "./pdf-pictures";
import { type Pdfium, withPdfium } from "./pdfium-module";
import { textPageWords, type Viewport } from "./pdfium-text";
import { hasSparseTextLayer } from "./sparse-page";

/**
 * A PDF's text layer, read with PDFium (see pdfium-module.ts): pages of
 * positioned words and ordered lines, and for pages whose text layer is thin,
 * how much of them pictures cover (whether such a page is a scan to OCR).
 */

export interface PdfIngestOptions {
  /** More pages than this is refused with limit_exceeded before any page is read. */
  maxPages: number;
}

export interface PdfReading {
  pages: Page[];
  /**
   * Picture share (see pdf-pictures.ts) of each page whose text layer is sparse,
   * read while the page is open anyway: whether such a page is a scan to OCR.
   */
  pictureShares: Map<number, number>;
}

/** FPDF_GetLastError's code for a document that needs a password. */
const PASSWORD_ERROR = 4;
/** Where FS_RECTF is written in the scratch area (pdfium-text.ts and pdf-pictures.ts use it between pages). */
const RECT_AT = 0;
/** Where FS_SIZEF is written in the scratch area while pages are counted. */
const SIZE_AT = 0;

/** Reads a PDF's text layer into pages of positioned words and ordered lines. */
export async function ingestPdf(bytes: Uint8Array, options: PdfIngestOptions): Promise<Page[]> {
  return (await readPdf(bytes, options)).pages;
}

/** The text-layer pages, and how much of each sparse page pictures cover. */
export function readPdf(bytes: Uint8Array, options: PdfIngestOptions): Promise<PdfReading> {
  const { maxPages } = options;
  return withPdfium((pdfium) =>
    withDocument(pdfium, bytes, (doc) => {
      const count = countPages(pdfium, doc, maxPages);
      if (count > maxPages) {
        throw new AnalysisError("limit_exceeded", `The document has ${count} pages; at most ${maxPages} pages can be analysed at once.`);
      }
      const pages: Page[] = [];
      const pictureShares = new Map<number, number>();
      for (let n = 1; n <= count; n++) {
        withPage(pdfium, doc, n, (page, geometry) => {
          const textPage = pdfium.api.FPDFText_LoadPage(page);
          if (!textPage) throw new AnalysisError("unreadable", `Page ${n} of the PDF cannot be read.`, n);
          let read: Page;
          try {
            const words = textPageWords(pdfium, textPage, geometry.viewport);
            read = { number: n, width: geometry.width, height: geometry.height, lines: orderLines(groupLines(words)), source: "text-layer" };
          } finally {
            pdfium.api.FPDFText_ClosePage(textPage);
          }
          // Only sparse pages have their pictures measured: digital pages pay nothing for the scan check.
          if (hasSparseTextLayer(read)) pictureShares.set(n, pictureShare(pdfium, page, geometry.area));
          pages.push(read);
        });
      }
      return { pages, pictureShares };
    }),
  );
}

/** The picture share of each given 1-based page of a PDF, opening it for that (1 for a page that cannot be loaded: OCR may still read it). */
export function readPictureShares(bytes: Uint8Array, pageNumbers: number[]): Promise<Map<number, number>> {
  if (pageNumbers.length === 0) return Promise.resolve(new Map());
  return withPdfium((pdfium) =>
    withDocument(pdfium, bytes, (doc) => {
      const shares = new Map<number, number>();
      for (const n of pageNumbers) {
        const page = pdfium.api.FPDF_LoadPage(doc, n - 1);
        if (!page) {
          shares.set(n, 1);
          continue;
        }
        try {
          shares.set(n, pictureShare(pdfium, page, pageGeometry(pdfium, page).area));
        } finally {
          pdfium.api.FPDF_ClosePage(page);
        }
      }
      return shares;
    }),
  );
}

/**
 * The page count to hold against the limit. PDFium takes the page tree's
 * /Count on trust, and a damaged file can claim 32767 pages over a tree of
 * three; pdfjs counted such a tree's pages instead. So a claim over the limit
 * is checked: a page that is there has a page dictionary, which PDFium finds
 * without parsing its content, and when the last claimed page has none the
 * count is the first missing page (pages are found in order). A claim within
 * the limit is kept: a page it names that cannot be found is refused when it
 * is read ("Page N … cannot be read"), as a truncated file should be, rather
 * than dropped without a word.
 */
function countPages(pdfium: Pdfium, doc: number, maxPages: number): number {
  const claimed = pdfium.api.FPDF_GetPageCount(doc);
  const size = pdfium.scratch + SIZE_AT;
  const exists = (index: number) => pdfium.api.FPDF_GetPageSizeByIndexF(doc, index, size) !== 0;
  if (claimed <= maxPages || exists(claimed - 1)) return claimed;
  // Binary search for the first missing page: pages [0, low) exist, page `high` does not.
  let low = 0;
  let high = claimed - 1;
  while (low < high) {
    const middle = (low + high) >> 1;
    if (exists(middle)) low = middle + 1;
    else high = middle;
  }
  // No page found at all: the first page is read, and refused as unreadable.
  return Math.max(low, 1);
}

/** Opens the bytes as a document for `use` and closes it after. Typed errors for encrypted and damaged files. */
function withDocument<T>(pdfium: Pdfium, bytes: Uint8Array, use: (doc: number) => T): T {
  const api = pdfium.api;
  // PDFium reads the document from its own memory for as long as it is open: the copy lives until it is closed.
  const data = pdfium.copyIn(bytes);
  if (!data) throw new AnalysisError("limit_exceeded", "Reading the file needed more memory than allowed; it was stopped.");
  try {
    const doc = api.FPDF_LoadMemDocument(data, bytes.length, 0);
    if (!doc) {
      if (api.FPDF_GetLastError() === PASSWORD_ERROR) {
        throw new AnalysisError("encrypted", "The PDF is password-protected; remove the password and upload it again.");
      }
      if (pdfium.memoryRefused) throw new AnalysisError("limit_exceeded", "Reading the file needed more memory than allowed; it was stopped.");
      throw new AnalysisError("unreadable", "The file is not a readable PDF: it is damaged or truncated.");
    }
    try {
      return use(doc);
    } finally {
      api.FPDF_CloseDocument(doc);
    }
  } finally {
    api.free(data);
  }
}

interface PageGeometry {
  width: number;
  height: number;
  /** Area of the page's visible box in square points. */
  area: number;
  viewport: Viewport;
}

/** Loads page n (1-based) for `use` and closes it after. */
function withPage(pdfium: Pdfium, doc: number, n: number, use: (page: number, geometry: PageGeometry) => void): void {
  const page = pdfium.api.FPDF_LoadPage(doc, n - 1);
  if (!page) throw new AnalysisError("unreadable", `Page ${n} of the PDF cannot be read.`, n);
  try {
    use(page, pageGeometry(pdfium, page));
  } finally {
    pdfium.api.FPDF_ClosePage(page);
  }
}

/**
 * The page as displayed: its visible box (crop box within media box) turned by
 * its /Rotate, y downwards, at 72 dpi — the same space pdfjs's viewport at
 * scale 1 gives, which the engine's geometry has always been in.
 */
function pageGeometry(pdfium: Pdfium, page: number): PageGeometry {
  const rect = pdfium.scratch + RECT_AT;
  pdfium.api.FPDF_GetPageBoundingBox(page, rect);
  // FS_RECTF holds float32s: 595.28 comes back as 595.280029…, so each is taken to the 7 digits a float32 carries.
  const [left, top, right, bottom] = [0, 4, 8, 12].map((at) => Number(pdfium.float32(rect + at).toPrecision(7))) as [number, number, number, number];
  const [x0, x1] = [Math.min(left, right), Math.max(left, right)];
  const [y0, y1] = [Math.min(top, bottom), Math.max(top, bottom)];
  const centerX = (x0 + x1) / 2;
  const centerY = (y0 + y1) / 2;
  // Quarter turns clockwise, as /Rotate counts them.
  const [a, b, c, d] = ROTATIONS[pdfium.api.FPDFPage_GetRotation(page) & 3]!;
  const sideways = a === 0;
  const width = sideways ? y1 - y0 : x1 - x0;
  const height = sideways ? x1 - x0 : y1 - y0;
  const offsetX = sideways ? centerY - y0 : centerX - x0;
  const offsetY = sideways ? centerX - x0 : centerY - y0;
  const viewport: Viewport = [a, b, c, d, offsetX - a * centerX - c * centerY, offsetY - b * centerX - d * centerY];
  return { width, height, area: (x1 - x0) * (y1 - y0), viewport };
}

/** The rotation part of the page-to-display matrix for 0°, 90°, 180° and 270° (pdfjs's PageViewport). */
const ROTATIONS: readonly (readonly [number, number, number, number])[] = [
  [1, 0, 0, -1],
  [0, 1, 1, 0],
  [-1, 0, 0, 1],
  [0, -1, -1, 0],
];
