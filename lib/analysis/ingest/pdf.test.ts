import { createDeflate } from "node:zlib";
import { beginText, degrees, endText, PDFDict, PDFDocument, PDFName, PDFNumber, setFontAndSize, setTextMatrix, showText, StandardFonts } from "pdf-lib";
import { describe, expect, it } from "vitest";
import { AnalysisError } from "../errors";
import { readPdf } from "./pdf";

/** A one-page A4 PDF; `draw` puts text on the page. */
async function onePage(draw: (doc: PDFDocument, page: ReturnType<PDFDocument["addPage"]>) => Promise<void>): Promise<Uint8Array> {
  const doc = await PDFDocument.create();
  const page = doc.addPage([595.28, 841.89]);
  await draw(doc, page);
  return doc.save();
}

async function errorOf(promise: Promise<unknown>): Promise<AnalysisError> {
  const error = await promise.then(() => undefined, (e: unknown) => e);
  expect(error).toBeInstanceOf(AnalysisError);
  return error as AnalysisError;
}

/** `size` MiB of spaces, deflated a mebibyte at a time (about a thousandth of it on the wire). */
async function deflatedSpaces(size: number): Promise<Uint8Array> {
  const deflate = createDeflate({ level: 9 });
  const chunks: Buffer[] = [];
  deflate.on("data", (chunk: Buffer) => chunks.push(chunk));
  const done = new Promise((resolve) => deflate.on("end", resolve));
  const block = Buffer.alloc(2 ** 20, 0x20);
  for (let i = 0; i < size; i++) if (!deflate.write(block)) await new Promise((resolve) => deflate.once("drain", resolve));
  deflate.end();
  await done;
  return Buffer.concat(chunks);
}

describe("readPdf (PDFium)", () => {
  it("refuses more pages than allowed before reading any", async () => {
    const doc = await PDFDocument.create();
    for (let i = 0; i < 3; i++) doc.addPage();
    const error = await errorOf(readPdf(await doc.save(), { maxPages: 2 }));
    expect(error.code).toBe("limit_exceeded");
    expect(error.message).toBe("The document has 3 pages; at most 2 pages can be analysed at once.");
  });

  it("counts the pages that exist when the page tree claims more than the limit (/Count 32767 over two pages)", async () => {
    const doc = await PDFDocument.create();
    const font = await doc.embedFont(StandardFonts.Helvetica);
    for (const text of ["FIRST", "SECOND"]) doc.addPage().drawText(text, { x: 50, y: 700, size: 12, font });
    doc.catalog.lookup(PDFName.of("Pages"), PDFDict).set(PDFName.of("Count"), PDFNumber.of(32767));
    const { pages } = await readPdf(await doc.save({ useObjectStreams: false }), { maxPages: 500 });
    expect(pages.map((p) => p.lines.map((l) => l.text))).toEqual([["FIRST"], ["SECOND"]]);
  });

  it("places words in the page's displayed space: y downwards, the top 0.8 em above the baseline", async () => {
    const pdf = await onePage(async (doc, page) => {
      page.drawText("INVOICE No. 4471", { x: 50, y: 700, size: 12, font: await doc.embedFont(StandardFonts.Helvetica) });
    });
    const [page] = (await readPdf(pdf, { maxPages: 10 })).pages;
    expect([page!.width, page!.height]).toEqual([595.28, 841.89]);
    const words = page!.lines.flatMap((l) => l.words);
    expect(words.map((w) => w.text)).toEqual(["INVOICE", "No.", "4471"]);
    expect(words[0]!.x).toBeCloseTo(50, 1);
    expect(words[0]!.y).toBeCloseTo(841.89 - 700 - 0.8 * 12, 1);
    expect(words[0]!.fontSize).toBeCloseTo(12, 3);
    // A word ends where its last glyph's advance does: "No." starts after "INVOICE" and a space.
    expect(words[1]!.x).toBeGreaterThan(words[0]!.x + words[0]!.width);
  });

  it("keeps a hyphen that ends a line, which PDFium hands over as U+0002 (a reference wrapped in its box)", async () => {
    const pdf = await onePage(async (doc, page) => {
      const font = await doc.embedFont(StandardFonts.Helvetica);
      page.drawText("70,210.10 KGS TGM-", { x: 300, y: 700, size: 9, font });
      page.drawText("24-0133", { x: 300, y: 689, size: 9, font });
    });
    const [page] = (await readPdf(pdf, { maxPages: 10 })).pages;
    expect(page!.lines.map((l) => l.text)).toEqual(["70,210.10 KGS TGM-", "24-0133"]);
  });

  it("turns a rotated page as it is displayed (/Rotate 90: sides swapped, the text running down)", async () => {
    const pdf = await onePage(async (doc, page) => {
      page.drawText("ROTATED", { x: 50, y: 700, size: 10, font: await doc.embedFont(StandardFonts.Helvetica) });
      page.setRotation(degrees(90));
    });
    const [page] = (await readPdf(pdf, { maxPages: 10 })).pages;
    expect([page!.width, page!.height]).toEqual([841.89, 595.28]);
    const [word] = page!.lines.flatMap((l) => l.words);
    expect(word!.text).toBe("ROTATED");
    expect(word!.x).toBeCloseTo(700, 1);
    expect(word!.y).toBeCloseTo(50 - 0.8 * 10, 1);
  });

  it("sizes text by its matrix, not its nominal size (1 Tf scaled 12× by the text matrix is 12 pt)", async () => {
    const pdf = await onePage(async (doc, page) => {
      const font = await doc.embedFont(StandardFonts.Helvetica);
      const name = page.node.newFontDictionary("F1", font.ref);
      page.pushOperators(beginText(), setFontAndSize(name, 1), setTextMatrix(12, 0, 0, 12, 50, 700), showText(font.encodeText("GROSS WEIGHT 24310 KG")), endText());
    });
    const [page] = (await readPdf(pdf, { maxPages: 10 })).pages;
    const words = page!.lines.flatMap((l) => l.words);
    expect(words.map((w) => w.text)).toEqual(["GROSS", "WEIGHT", "24310", "KG"]);
    expect(words[0]!.fontSize).toBeCloseTo(12, 3);
  });

  it("stops a decompression bomb at PDFium's memory cap, and reads the next file on a fresh instance", async () => {
    const bomb = await onePage(async (doc, page) => {
      // A content stream that inflates to 600 MiB of spaces: more than an instance may hold.
      const spaces = await deflatedSpaces(600);
      const ref = doc.context.register(doc.context.stream(spaces, { Filter: "FlateDecode" }));
      page.node.addContentStream(ref);
    });
    expect(bomb.length).toBeLessThan(2 * 2 ** 20);
    const error = await errorOf(readPdf(bomb, { maxPages: 10 }));
    expect(error.code).toBe("limit_exceeded");
    expect(error.message).toBe("Reading the file needed more memory than allowed; it was stopped.");
    const after = await onePage(async (doc, page) => {
      page.drawText("AFTER", { x: 50, y: 700, size: 12, font: await doc.embedFont(StandardFonts.Helvetica) });
    });
    expect((await readPdf(after, { maxPages: 10 })).pages[0]!.lines.map((l) => l.text)).toEqual(["AFTER"]);
  }, 120_000);
});
