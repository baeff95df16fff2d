import { describe, expect, it } from "vitest";
import { OCR_TEST_TIMEOUT_MS, makeTextPdf, rasterisePdf, wordRecall, wordsOf, type ScanPageSpec } from "@/test/fixtures/formats/scan-fixtures";
import { INVOICE_LINES } from "@/test/fixtures/formats/sample-text";
import type { Page } from "../types";
import { DEFAULT_LIMITS } from "./limits";
import { cleanOcrText, enlargementFactor, inkReachEm, ocrImage, rereadTurned, toPage } from "./ocr";
import { detectOrientation, estimateSkewDegrees, uprightPage } from "./ocr-geometry";
import { parseTesseractTsv, recognizeImage, type OcrWord } from "./ocr-tesseract";

const DPI = 300;
const MARGIN_POINTS = 60;

async function scan(spec: Omit<ScanPageSpec, "lines">): Promise<Page> {
  const pdf = await makeTextPdf([{ lines: INVOICE_LINES, ...spec }]);
  const [png] = await rasterisePdf(pdf, { dpi: DPI, format: "png", grey: true });
  const [page] = await ocrImage(png!, { dpi: DPI });
  return page!;
}

function readWords(page: Page): string[] {
  return page.lines.flatMap((line) => line.words.map((w) => w.text));
}

function word(text: string, left: number, top: number, width = 40, height = 12): OcrWord {
  return { text, left, top, width, height, confidence: 90 };
}

describe("tesseract TSV", () => {
  it("groups words by page and line and drops empty and layout rows", () => {
    const tsv = [
      "level\tpage_num\tblock_num\tpar_num\tline_num\tword_num\tleft\ttop\twidth\theight\tconf\ttext",
      "1\t1\t0\t0\t0\t0\t0\t0\t800\t600\t-1\t",
      "5\t1\t1\t1\t1\t1\t10\t20\t50\t12\t95.5\tINVOICE",
      "5\t1\t1\t1\t1\t2\t70\t20\t30\t12\t88\tNo.",
      "5\t1\t1\t1\t2\t1\t10\t40\t30\t12\t91\t  ",
      "1\t2\t0\t0\t0\t0\t0\t0\t400\t300\t-1\t",
      "5\t2\t1\t1\t1\t1\t5\t5\t20\t10\t70\tB/L",
    ].join("\n");
    const pages = parseTesseractTsv(tsv);
    expect(pages.map((p) => [p.width, p.height, p.lines.length])).toEqual([[800, 600, 1], [400, 300, 1]]);
    expect(pages[0]!.lines[0]!.map((w) => [w.text, w.confidence])).toEqual([["INVOICE", 95.5], ["No.", 88]]);
  });
});

describe("orientation and skew from word boxes", () => {
  it("tells which way the text runs", () => {
    const page = (line: OcrWord[]) => ({ width: 1000, height: 1000, lines: [line] });
    expect(detectOrientation(page([word("a", 10, 10), word("b", 80, 10)]))).toBe(0);
    expect(detectOrientation(page([word("a", 80, 10), word("b", 10, 10)]))).toBe(180);
    expect(detectOrientation(page([word("a", 10, 10, 12, 40), word("b", 10, 80, 12, 40)]))).toBe(90);
    expect(detectOrientation(page([word("a", 10, 80, 12, 40), word("b", 10, 10, 12, 40)]))).toBe(270);
  });

  it("measures a line rising to the right as a positive skew", () => {
    const rise = Math.tan((3 * Math.PI) / 180) * 100;
    const line = [0, 1, 2, 3].map((i) => word(`w${i}`, i * 100, 500 - i * rise));
    expect(estimateSkewDegrees([line])).toBeCloseTo(3, 1);
  });
});

describe("enlarging low-resolution images for OCR", () => {
  const enlargedPixels = (width: number, height: number, dpi: number) => {
    const factor = enlargementFactor(width, height, dpi, DEFAULT_LIMITS);
    return Math.round(width * factor) * Math.round(height * factor);
  };

  it("holds the enlarged canvas to the pixel cap, not only the image the header described", () => {
    // 25.6 MP at 193 dpi (A4-wide assumption) would be 61 MP at 300 dpi.
    expect(enlargedPixels(1600, 16_000, 1600 / 8.27)).toBeLessThanOrEqual(DEFAULT_LIMITS.maxPixels);
    expect(enlargedPixels(1200, 33_333, 1200 / 8.27)).toBeLessThanOrEqual(DEFAULT_LIMITS.maxPixels);
    expect(enlargementFactor(6000, 6600, 150, DEFAULT_LIMITS)).toBe(1);
  });

  it("holds each enlarged side to the side cap", () => {
    expect(Math.round(12_000 * enlargementFactor(12_000, 1_500, 150, DEFAULT_LIMITS))).toBeLessThanOrEqual(DEFAULT_LIMITS.maxImageSide);
  });

  it("enlarges a 100 dpi fax to 300 dpi, never more than three times, and leaves 200 dpi and above alone", () => {
    expect(enlargementFactor(850, 1100, 100, DEFAULT_LIMITS)).toBe(3);
    expect(enlargementFactor(400, 560, 24, DEFAULT_LIMITS)).toBe(3);
    expect(enlargementFactor(1700, 2200, 200, DEFAULT_LIMITS)).toBe(1);
  });
});

describe("what specks leave in OCR words", () => {
  it("drops marks standing alone and trims quotes, underscores and bars from word edges", () => {
    expect(["_", ".", "‘", "“,", "|"].map(cleanOcrText)).toEqual(["", "", "", "", ""]);
    expect(["‘PLG-23-4124", "“TANJUNG", "LAGOON’", "_CERRADO"].map(cleanOcrText)).toEqual(["PLG-23-4124", "TANJUNG", "LAGOON", "CERRADO"]);
    // Punctuation that is text stays: a dash between words, a trailing full stop, a slash.
    expect(["-", "LTD.", "+/-", "O'NEILL", "&"].map(cleanOcrText)).toEqual(["-", "LTD.", "+/-", "O'NEILL", "&"]);
    // A letter read for a digit between digits is the digit; letters beside letters stay ("CO51232792").
    expect(["ILCAE0022l000098", "2l08l7", "105-O004", "CO51232792", "3lC:"].map(cleanOcrText)).toEqual(["ILCAE00221000098", "210817", "105-O004", "CO51232792", "3lC:"]);
  });

  it("drops a mark no larger than a speck beside the line's text, and keeps a printed dash", () => {
    const lineOf = (words: OcrWord[]) => toPage({ width: 2480, height: 3508, orientation: 0, skewDegrees: 0, lines: [words.map((w) => ({ ...w, lineIndex: 0 }))] }, 1, DPI).lines.map((l) => l.text);
    // What tesseract read before an invoice's 13 pt title on a scan: a 3 × 4 px "-" at 80% confidence.
    expect(lineOf([{ ...word("-", 929, 388, 3, 4), confidence: 80 }, word("Commercial", 958, 362, 321, 50), word("Invoice", 1318, 364, 222, 41)])).toEqual(["Commercial Invoice"]);
    expect(lineOf([word("SAN", 100, 100, 70, 30), word("PEDRO", 180, 100, 120, 30), word("-", 310, 112, 14, 4), word("COTE", 334, 100, 100, 30)])).toEqual(["SAN PEDRO - COTE"]);
  });

  it("sets the words of one tesseract line on one baseline, so a bracket's descender does not start a new row", () => {
    const line = [word("Goods", 100, 100, 60, 24), word("(exporter's", 170, 98, 110, 31), word("name)", 290, 100, 60, 30)];
    const page = toPage({ width: 2480, height: 3508, orientation: 0, skewDegrees: 0, lines: [line.map((w) => ({ ...w, lineIndex: 0 }))] }, 1, DPI);
    expect(page.lines.map((l) => l.text)).toEqual(["Goods (exporter's name)"]);
  });
});

describe("font size from tesseract's word boxes", () => {
  const lineOf = (words: OcrWord[]) => toPage({ width: 2480, height: 3508, orientation: 0, skewDegrees: 0, lines: [words.map((w) => ({ ...w, lineIndex: 0 }))] }, 1, DPI).lines[0]!;
  /** Pixels at 300 dpi of `em` ems of a 10 pt font. */
  const px = (em: number) => (em * 10 * DPI) / 72;

  it("knows how far a word's letters reach: capitals and digits, ascenders, x-height, descenders", () => {
    expect(inkReachEm("INVOICE")).toBeCloseTo(0.716, 2);
    expect(inkReachEm("2024")).toBeCloseTo(0.716, 2);
    expect(inkReachEm("none")).toBeCloseTo(0.519, 2);
    expect(inkReachEm("Shipping")).toBeCloseTo(0.73 + 0.21, 2);
    expect(inkReachEm("DUBAI,")).toBeCloseTo(0.716 + 0.12, 2);
    expect(inkReachEm("--")).toBeUndefined();
  });

  it("reads the same 10 pt from a line of capitals and from a line of small letters", () => {
    expect(lineOf([word("CERTIFICATE", 100, 100, 300, px(0.716)), word("NO.", 420, 100, 60, px(0.716))]).fontSize).toBeCloseTo(10, 1);
    expect(lineOf([word("one", 100, 100, 60, px(0.519)), word("more", 180, 100, 80, px(0.519))]).fontSize).toBeCloseTo(10, 1);
  });

  it("is not led by a word whose box grew with ink touching it (a rule, a stamp)", () => {
    const line = [word("Booking", 100, 100, 150, px(0.94)), word("Reference:", 270, 90, 210, px(1.3))];
    expect(lineOf(line).fontSize).toBeCloseTo(10, 1);
    expect(lineOf([...line, word("BKG96050479", 600, 100, 240, px(0.716))]).fontSize).toBeCloseTo(10, 1);
  });
});

describe("ocrImage on generated scans", { timeout: OCR_TEST_TIMEOUT_MS }, () => {
  it("stops tesseract by the CPU time it spends on a page, not by the wall clock a busy machine stretches", async () => {
    const pdf = await makeTextPdf([{ lines: [...INVOICE_LINES, ...INVOICE_LINES, ...INVOICE_LINES], fontSize: 7 }]);
    const [png] = await rasterisePdf(pdf, { dpi: 600, format: "png", grey: true });
    await expect(recognizeImage(png!, { dpi: 600, cpuSeconds: 1 })).rejects.toMatchObject({ code: "timeout" });
  });

  it("estimates each line's font size within 8% of the printed size", async () => {
    for (const fontSize of [9, 14]) {
      const page = await scan({ fontSize });
      const sizes = page.lines.map((l) => l.fontSize);
      expect(sizes.filter((s) => Math.abs(s / fontSize - 1) > 0.08), `${fontSize} pt: ${sizes.map((s) => s.toFixed(1))}`).toEqual([]);
    }
  });

  it("reads a page again at half resolution when the first reading found almost no words (text too large for the line finder)", async () => {
    const pdf = await makeTextPdf([{ lines: ["additional copy of", "documents for issuing", "bank file"], fontSize: 44 }]);
    const [png] = await rasterisePdf(pdf, { dpi: DPI, format: "png", grey: true });
    // What tesseract returned at 300 dpi for such a sheet in a bank set: a word of the footer, nothing of the note.
    const missed = { width: 2480, height: 3508, lines: [[word("Milano", 200, 3300)]] };
    const reread = await rereadTurned(missed, async () => png!, { dpi: DPI });
    const page = toPage(uprightPage(reread), 1, DPI);
    expect(page.lines.map((l) => l.text.toLowerCase())).toEqual(["additional copy of", "documents for issuing", "bank file"]);
    // Boxes are back in points on the full page, not on the smaller image read.
    expect(page.lines[0]!.x).toBeCloseTo(MARGIN_POINTS, -1);
    expect(page.width).toBeCloseTo(595, 0);
  });

  it("reads an upright 300 dpi page with word boxes in points and confidences", async () => {
    const page = await scan({});
    expect(page.source).toBe("ocr");
    expect(page.width).toBeCloseTo(595.28, 0);
    expect(wordRecall(wordsOf(INVOICE_LINES), readWords(page))).toBeGreaterThanOrEqual(0.9);
    const title = page.lines[0]!;
    expect(title.text).toBe("COMMERCIAL INVOICE");
    // pdfkit draws the first line at the margin; its box must sit there on the page.
    expect(title.x).toBeGreaterThan(MARGIN_POINTS - 5);
    expect(title.x).toBeLessThan(MARGIN_POINTS + 5);
    expect(title.y).toBeGreaterThan(MARGIN_POINTS - 5);
    expect(title.y).toBeLessThan(MARGIN_POINTS + 15);
    expect(title.fontSize).toBeGreaterThan(8);
    expect(title.fontSize).toBeLessThan(16);
    for (const w of title.words) expect(w.confidence).toBeGreaterThan(0.5);
  });

  it.each([
    ["sideways", 1],
    ["upside-down", 2],
  ] as const)("turns a %s scan upright", async (_name, quarterTurns) => {
    const page = await scan({ quarterTurns });
    expect(page.width).toBeLessThan(page.height);
    expect(page.lines[0]!.text).toBe("COMMERCIAL INVOICE");
    expect(wordRecall(wordsOf(INVOICE_LINES), readWords(page))).toBeGreaterThanOrEqual(0.9);
  });

  it("levels a page fed 2° askew so each printed row stays one row, in order", async () => {
    const page = await scan({ skewDegrees: 2 });
    const index = (needle: string) => page.lines.findIndex((l) => l.text.includes(needle));
    const invoiceNo = page.lines[index("INV-2024-0417")]!;
    const date = page.lines[index("March")]!;
    // Left and right ends of one printed row: 2° over 400 pt would be 14 pt apart without deskewing.
    expect(Math.abs(invoiceNo.y - date.y)).toBeLessThan(4);
    expect(index("March")).toBe(index("INV-2024-0417") + 1);
    const rows = ["COMMERCIAL", "Seller", "Buyer", "Letter of Credit", "Gross Weight", "We certify"].map(index);
    expect(rows.every((i) => i >= 0)).toBe(true);
    expect(rows).toEqual([...rows].sort((a, b) => a - b));
  });
});
