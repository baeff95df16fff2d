import { describe, expect, it } from "vitest";
import { makeMixedPdf } from "@/test/fixtures/formats/scanned-pdf";
import { OCR_TEST_TIMEOUT_MS, wordRecall, wordsOf } from "@/test/fixtures/formats/scan-fixtures";
import { INVOICE_LINES } from "@/test/fixtures/formats/sample-text";
import type { Page } from "../types";
import { fillScannedPages, needsOcr } from "./ocr-pdf";
import { ingestPdf } from "./pdf";
import { chooseRenderDpi } from "./render";

const COVER_LETTER = ["COVERING SCHEDULE", "We enclose the following documents presented under credit LC58213409:", "Commercial invoice in 3 originals"];

describe("needsOcr", () => {
  const page = (texts: string[]): Page => ({
    number: 1,
    width: 595,
    height: 842,
    source: "text-layer",
    lines: texts.map((text) => ({ text, words: [], x: 0, y: 0, width: 10, height: 10, fontSize: 10 })),
  });

  it("sends pages with no or almost no text to OCR and keeps real text layers", () => {
    expect(needsOcr(page([]))).toBe(true);
    expect(needsOcr(page(["Scanned with CamScanner"]))).toBe(true);
    expect(needsOcr(page(COVER_LETTER))).toBe(false);
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
    expect(textLayer.map(needsOcr)).toEqual([false, true]);

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
