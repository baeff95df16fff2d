import { PDFDocument, StandardFonts } from "pdf-lib";
import { describe, expect, it } from "vitest";
import { makeMixedPdf } from "@/test/fixtures/formats/scanned-pdf";
import { OCR_TEST_TIMEOUT_MS, makeTextPdf, rasterisePdf, wordRecall, wordsOf } from "@/test/fixtures/formats/scan-fixtures";
import { INVOICE_LINES } from "@/test/fixtures/formats/sample-text";
import type { Page } from "../types";
import { fillScannedPages, findScannedPages, hasSparseTextLayer } from "./ocr-pdf";
import { ingestPdf, readPdf } from "./pdf";
import { chooseRenderDpi } from "./render";

const COVER_LETTER = ["COVERING SCHEDULE", "We enclose the following documents presented under credit LC58213409:", "Commercial invoice in 3 originals"];

describe("hasSparseTextLayer", () => {
  const page = (texts: string[]): Page => ({
    number: 1,
    width: 595,
    height: 842,
    source: "text-layer",
    lines: texts.map((text) => ({ text, words: [], x: 0, y: 0, width: 10, height: 10, fontSize: 10 })),
  });

  it("flags pages with no or almost no text and keeps real text layers", () => {
    expect(hasSparseTextLayer(page([]))).toBe(true);
    expect(hasSparseTextLayer(page(["Scanned with CamScanner"]))).toBe(true);
    expect(hasSparseTextLayer(page(COVER_LETTER))).toBe(false);
  });
});

/** Adds a line of text at the foot of a page, as scanner apps stamp their name over the scan. */
async function stampText(pdf: Uint8Array, pageIndex: number, text: string): Promise<Uint8Array> {
  const doc = await PDFDocument.load(pdf);
  const font = await doc.embedFont(StandardFonts.Helvetica);
  doc.getPage(pageIndex).drawText(text, { x: 20, y: 12, size: 9, font });
  return doc.save();
}

describe("findScannedPages", { timeout: OCR_TEST_TIMEOUT_MS }, () => {
  it("sends a page reading only 'Scanned with CamScanner' over a scan to OCR", async () => {
    const pdf = await stampText(await makeMixedPdf([{ digital: COVER_LETTER }, { scanned: { lines: INVOICE_LINES } }]), 1, "Scanned with CamScanner");
    const { pages, pictureShares } = await readPdf(pdf, { maxPages: 10 });
    expect(pages[1]!.lines.map((l) => l.text)).toEqual(["Scanned with CamScanner"]);
    expect([...pictureShares.keys()]).toEqual([2]);
    expect(pictureShares.get(2)).toBeGreaterThan(0.9);
    expect(await findScannedPages(pdf, pages, pictureShares)).toEqual([2]);
    // Without the shares read with the pages, the file is opened again for them.
    expect(await findScannedPages(pdf, pages)).toEqual([2]);
  });

  it("keeps the text layer of a sparse digital page without pictures", async () => {
    const pdf = await makeMixedPdf([{ digital: ["COPIES"] }, { digital: COVER_LETTER }, { digital: [] }]);
    const { pages, pictureShares } = await readPdf(pdf, { maxPages: 10 });
    expect(pages.map(hasSparseTextLayer)).toEqual([true, false, true]);
    expect([...pictureShares]).toEqual([[1, 0], [3, 0]]);
    expect(await findScannedPages(pdf, pages, pictureShares)).toEqual([]);
    expect(await findScannedPages(pdf, pages)).toEqual([]);
  });

  it("keeps the text layer of a sparse page whose only picture is a small logo", async () => {
    const [logo] = await rasterisePdf(await makeTextPdf([{ lines: ["ACME"] }]), { dpi: 20, format: "jpeg", grey: true });
    const doc = await PDFDocument.create();
    const font = await doc.embedFont(StandardFonts.Helvetica);
    const sheet = doc.addPage([595.28, 841.89]);
    sheet.drawImage(await doc.embedJpg(logo!), { x: 60, y: 740, width: 80, height: 60 });
    sheet.drawText("ORIGINAL DOCUMENTS", { x: 60, y: 700, size: 14, font });
    const pdf = await doc.save();
    const pages = await ingestPdf(pdf, { maxPages: 10 });
    expect(hasSparseTextLayer(pages[0]!)).toBe(true);
    expect(await findScannedPages(pdf, pages)).toEqual([]);
  });
});

describe("chooseRenderDpi", () => {
  it("renders at 300 dpi and lowers the resolution for pages that would exceed the pixel limit", () => {
    expect(chooseRenderDpi(595, 842, { maxPixels: 40_000_000 })).toBe(300);
    const poster = chooseRenderDpi(72 * 40, 72 * 30, { maxPixels: 40_000_000 });
    expect(poster).toBeLessThan(300);
    expect((40 * poster) * (30 * poster)).toBeLessThanOrEqual(40_000_000);
  });
});

describe("fillScannedPages", { timeout: OCR_TEST_TIMEOUT_MS }, () => {
  it("OCRs the scanned page of a mixed PDF and keeps the digital page's text layer", async () => {
    const pdf = await makeMixedPdf([{ digital: COVER_LETTER }, { scanned: { lines: INVOICE_LINES } }]);
    const textLayer = await ingestPdf(pdf, { maxPages: 10 });
    expect(await findScannedPages(pdf, textLayer)).toEqual([2]);

    const pages = await fillScannedPages(pdf, textLayer);
    expect(pages.map((p) => [p.number, p.source])).toEqual([[1, "text-layer"], [2, "ocr"]]);
    expect(pages[0]).toBe(textLayer[0]);
    const scanned = pages[1]!;
    expect(scanned.width).toBeCloseTo(595, -1);
    expect(wordRecall(wordsOf(INVOICE_LINES), scanned.lines.flatMap((l) => l.words.map((w) => w.text)))).toBeGreaterThanOrEqual(0.9);
    const title = scanned.lines[0]!;
    expect(title.text).toBe("COMMERCIAL INVOICE");
    expect(title.x).toBeGreaterThan(55);
    expect(title.x).toBeLessThan(65);
  });
});
