import { describe, expect, it } from "vitest";
import { docx, makeDocx, makeZip } from "@/test/fixtures/formats/docx-fixtures";
import { OCR_TEST_TIMEOUT_MS, makeTextPdf, rasterisePdf, wordRecall, wordsOf } from "@/test/fixtures/formats/scan-fixtures";
import type { Page } from "../types";
import { ingestDocx } from "./docx";
import { sniffFormat } from "./sniff";

const texts = (page: Page) => page.lines.map((l) => l.text);

describe("ingestDocx", { timeout: OCR_TEST_TIMEOUT_MS }, () => {
  it("splits pages at an explicit page break and keeps each page's text", async () => {
    const bytes = makeDocx([
      docx.paragraph("COMMERCIAL INVOICE", { style: "Heading1" }),
      docx.paragraph("Invoice No: INV-88120"),
      docx.pageBreak(),
      docx.paragraph("PACKING LIST", { size: 18 }),
      docx.paragraph("Packing List No: PL-88120"),
    ]);
    expect(sniffFormat(bytes)).toBe("docx");
    const pages = await ingestDocx(bytes);
    expect(pages.map((p) => [p.number, p.source])).toEqual([[1, "docx"], [2, "docx"]]);
    expect(texts(pages[0]!)).toEqual(["COMMERCIAL INVOICE", "Invoice No: INV-88120"]);
    expect(texts(pages[1]!)).toEqual(["PACKING LIST", "Packing List No: PL-88120"]);
    // Headings keep their size, so titles stand out as they do on a PDF page.
    expect(pages[0]!.lines[0]!.fontSize).toBeGreaterThan(pages[0]!.lines[1]!.fontSize);
    expect(pages[1]!.lines[0]!.fontSize).toBe(18);
  });

  it("breaks at page-break-before and at section breaks", async () => {
    const pages = await ingestDocx(
      makeDocx([docx.paragraph("Bill of Lading"), docx.paragraph("Certificate of Origin", { pageBreakBefore: true }), docx.sectionBreak(), docx.paragraph("Insurance Certificate")]),
    );
    expect(pages.map(texts)).toEqual([["Bill of Lading"], ["Certificate of Origin"], ["Insurance Certificate"]]);
  });

  it("puts tabbed text at the paragraph's custom tab stops, so retyped form columns stay aligned", async () => {
    const [page] = await ingestDocx(
      makeDocx([
        docx.paragraph("Shipper:\tConsignee:", { tabStops: [280] }),
        docx.paragraph("ODESA BLACK SOIL AGRO LLC\tTO ORDER", { tabStops: [280] }),
      ]),
    );
    const xs = (text: string) => page!.lines.find((l) => l.text === text)?.x;
    // Both right-hand pieces start at the stop (72 pt margin + 280 pt), whatever the length of the text before them.
    expect(xs("Consignee:")).toBeCloseTo(352, 0);
    expect(xs("TO ORDER")).toBeCloseTo(352, 0);
    // A tab stop in the paragraph's properties is not a tab character of its text.
    expect(xs("Shipper:")).toBe(72);
  });

  it("lays table rows out as rows with cells side by side", async () => {
    const [page] = await ingestDocx(
      makeDocx([docx.table([["Description", "Quantity", "Amount"], ["Cotton bed sheets", "4,800 PCS", "USD 30,000.00"]])]),
    );
    const header = page!.lines.filter((l) => ["Description", "Quantity", "Amount"].includes(l.text));
    expect(header).toHaveLength(3);
    expect(new Set(header.map((l) => l.y)).size).toBe(1);
    expect(header.map((l) => l.x)).toEqual([...header.map((l) => l.x)].sort((a, b) => a - b));
    const amount = page!.lines.find((l) => l.text === "USD 30,000.00");
    expect(amount?.x).toBe(header[2]!.x);
  });

  it("reads an image-only DOCX (pasted scans, one a page) by OCR", async () => {
    const lines = ["CERTIFICATE OF ORIGIN", "Certificate No: CO-2024-5531", "Country of Origin: Pakistan"];
    const [png] = await rasterisePdf(await makeTextPdf([{ lines, fontSize: 14 }]), { dpi: 150, format: "png", grey: true });
    const pages = await ingestDocx(makeDocx([docx.picture("rIdImage1", 800)], [{ name: "image1.png", data: png! }]));
    expect(pages.map((p) => [p.number, p.source])).toEqual([[1, "ocr"]]);
    expect(wordRecall(wordsOf(lines), pages[0]!.lines.flatMap((l) => l.words.map((w) => w.text)))).toBeGreaterThanOrEqual(0.9);
  });
});

describe("hostile DOCX", () => {
  const documentOf = (data: Uint8Array, declaredSize?: number) => makeZip([{ name: "word/document.xml", data, declaredSize }]);

  it("refuses a zip bomb from its central directory, before inflating", async () => {
    const bomb = documentOf(new Uint8Array(64 * 1024 * 1024));
    expect(bomb.length).toBeLessThan(200_000);
    await expect(ingestDocx(bomb)).rejects.toMatchObject({ code: "limit_exceeded", message: expect.stringContaining("zip bomb") });
  });

  it("refuses an archive whose declared contents exceed the decompressed-bytes limit", async () => {
    const big = documentOf(new Uint8Array(2 * 1024 * 1024).fill(65));
    await expect(ingestDocx(big, { limits: { maxDecompressedBytes: 1024 * 1024 } })).rejects.toMatchObject({
      code: "limit_exceeded",
      message: expect.stringContaining("maximum decompressed bytes"),
    });
  });

  it("stops inflating an entry that is larger than it declares", async () => {
    const liar = documentOf(new Uint8Array(8 * 1024 * 1024), 1000);
    await expect(ingestDocx(liar)).rejects.toMatchObject({ code: "unreadable" });
  });

  it("refuses too many entries and says a truncated archive is unreadable", async () => {
    const many = makeZip(Array.from({ length: 30 }, (_, i) => ({ name: `word/part${i}.xml`, data: new Uint8Array(1) })));
    await expect(ingestDocx(many, { limits: { maxZipEntries: 20 } })).rejects.toMatchObject({ code: "limit_exceeded" });
    const good = makeDocx([docx.paragraph("Invoice")]);
    await expect(ingestDocx(good.subarray(0, good.length - 30))).rejects.toMatchObject({ code: "unreadable" });
  });
});
