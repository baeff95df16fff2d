import PDFDocument from "pdfkit";
import { describe, expect, it } from "vitest";
import type { Page, Word } from "../types";
import { ingestDocument } from "./index";
import { groupLines } from "./layout";

interface Text {
  text: string;
  x: number;
  y: number;
  size?: number;
}

/** Renders texts at fixed positions (pdfkit: points, origin top-left) to a one-page-per-array PDF. */
function renderPdf(pages: Text[][]): Promise<Uint8Array> {
  const doc = new PDFDocument({ size: "A4", autoFirstPage: false });
  const chunks: Buffer[] = [];
  doc.on("data", (chunk: Buffer) => chunks.push(chunk));
  const done = new Promise<Uint8Array>((resolve) => doc.on("end", () => resolve(new Uint8Array(Buffer.concat(chunks)))));
  for (const texts of pages) {
    doc.addPage({ size: "A4", margin: 0 });
    for (const t of texts) doc.font("Helvetica").fontSize(t.size ?? 10).text(t.text, t.x, t.y, { lineBreak: false });
  }
  doc.end();
  return done;
}

function textsOf(page: Page): string[] {
  return page.lines.map((l) => l.text);
}

describe("PDF layout", () => {
  it("reads positioned words in top-left coordinates with their font size", async () => {
    const [page] = await ingestDocument(await renderPdf([[{ text: "COMMERCIAL INVOICE", x: 200, y: 40, size: 18 }, { text: "Total USD 100.00", x: 50, y: 700 }]]));
    expect(Math.round(page!.width)).toBe(595);
    const title = page!.lines.find((l) => l.text === "COMMERCIAL INVOICE")!;
    // pdfjs reports the size through the font matrix: within a few percent of the nominal size.
    expect(Math.abs(title.fontSize - 18)).toBeLessThan(1);
    expect(Math.abs(title.x - 200)).toBeLessThan(2);
    expect(title.y).toBeGreaterThan(30);
    expect(title.y).toBeLessThan(70);
    expect(title.words.map((w) => w.text)).toEqual(["COMMERCIAL", "INVOICE"]);
    const [first, second] = title.words;
    expect(second!.x).toBeGreaterThan(first!.x + first!.width);
    const total = page!.lines.find((l) => l.text.startsWith("Total"))!;
    expect(total.y).toBeGreaterThan(680);
  });

  it("splits a row at a wide gap so the two columns of a form are separate lines", async () => {
    const [page] = await ingestDocument(await renderPdf([[{ text: "Shipper: ACME EXPORTS", x: 40, y: 100 }, { text: "B/L No.: OLL2231904", x: 330, y: 100 }]]));
    expect(textsOf(page!)).toEqual(["Shipper: ACME EXPORTS", "B/L No.: OLL2231904"]);
  });

  it("reads a two-column block column by column when the columns' rows do not align", async () => {
    const left = ["Shipper", "ACME EXPORTS LTD", "12 HARBOUR ROAD", "HAMBURG, GERMANY"].map((text, i) => ({ text, x: 40, y: 100 + i * 14 }));
    const right = ["Bill of Lading No.", "OLL2231904", "Booking No.", "2231904"].map((text, i) => ({ text, x: 330, y: 107 + i * 14 }));
    const [page] = await ingestDocument(await renderPdf([[...left, ...right]]));
    expect(textsOf(page!)).toEqual([...left, ...right].map((t) => t.text));
  });

  it("reads a table row by row, left to right", async () => {
    const rows = [
      ["Description", "Qty", "Amount"],
      ["MACHINE PARTS", "20", "100,000.00"],
      ["SPARE PARTS", "5", "1,000.00"],
    ];
    const texts = rows.flatMap((cells, r) => cells.map((text, c) => ({ text, x: 40 + c * 200, y: 200 + r * 16 })));
    const [page] = await ingestDocument(await renderPdf([texts]));
    expect(textsOf(page!)).toEqual(rows.flat());
  });

  it("keeps a full-width heading before the columns under it", async () => {
    const heading = { text: "SEA WAYBILL - NON NEGOTIABLE - CARRIER COPY FOR SHIPPER RECORDS", x: 40, y: 60, size: 14 };
    const left = ["Consignee", "TO ORDER", "OF FIRST BANK"].map((text, i) => ({ text, x: 40, y: 120 + i * 14 }));
    const right = ["Vessel", "MV NORTHERN STAR"].map((text, i) => ({ text, x: 330, y: 127 + i * 35 }));
    const [page] = await ingestDocument(await renderPdf([[heading, ...left, ...right]]));
    expect(textsOf(page!)).toEqual([heading.text, ...left.map((t) => t.text), ...right.map((t) => t.text)]);
  });

  it("numbers pages from 1 in file order", async () => {
    const pages = await ingestDocument(await renderPdf([[{ text: "one", x: 40, y: 40 }], [{ text: "two", x: 40, y: 40 }]]));
    expect(pages.map((p) => [p.number, textsOf(p)])).toEqual([
      [1, ["one"]],
      [2, ["two"]],
    ]);
  });
});

describe("overprinted text", () => {
  const word = (text: string, x: number, fontSize = 9): Word => ({ text, x, y: 100 - fontSize, width: text.length * fontSize * 0.55, height: fontSize, fontSize, confidence: 1 });
  const row = (...words: Word[]) => groupLines(words).map((l) => l.text);

  it("takes a stamp's letters out of the name they cross", () => {
    const name = ["Anchor", "Marine", "&", "Cargo", "Surveys"];
    let x = 100;
    const words = name.map((t) => {
      const w = word(t, x);
      x += w.width + 2.5;
      return w;
    });
    const stamp = [word("A", words[1]!.x + 10, 14), word("C", words[4]!.x + 8, 14)];
    expect(row(...words, ...stamp)).toEqual(["Anchor Marine & Cargo Surveys", "A", "C"]);
  });

  it("keeps a small label and a larger value side by side", () => {
    expect(row(word("Shipper:", 40, 7), word("ACME", 75, 9.5), word("LTD", 102, 9.5))).toEqual(["Shipper: ACME LTD"]);
  });
});
