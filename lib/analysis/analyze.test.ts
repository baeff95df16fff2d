import { execFileSync } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { PDFDocument, StandardFonts } from "pdf-lib";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { AnalysisError, analyzeDocument } from "./index";

/** A PDF with one page per entry; each entry's lines are drawn top-down. */
async function makePdf(pages: string[][]): Promise<Uint8Array> {
  const doc = await PDFDocument.create();
  const font = await doc.embedFont(StandardFonts.Helvetica);
  for (const lines of pages) {
    const page = doc.addPage([595, 842]);
    lines.forEach((text, i) => page.drawText(text, { x: 40, y: 800 - i * 16, size: i === 0 ? 18 : 10, font }));
  }
  return doc.save();
}

async function codeOf(promise: Promise<unknown>): Promise<string> {
  try {
    await promise;
    return "no error";
  } catch (error) {
    expect(error).toBeInstanceOf(AnalysisError);
    return (error as AnalysisError).code;
  }
}

const INVOICE = ["COMMERCIAL INVOICE", "Invoice No.: INV-0042", "Unit Price USD 10.00 Amount USD 100.00"];
const PACKING = ["PACKING LIST", "Packing List No.: PL-0042", "Net Weight 900 KGS Gross Weight 960 KGS"];

let dir: string;
beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), "analyze-test-"));
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe("analyzeDocument", () => {
  it("returns the spec's shape: one element per document with its label, pages and extracted fields", async () => {
    const result = await analyzeDocument(await makePdf([INVOICE, PACKING]));
    expect(result.map((r) => Object.keys(r).sort())).toEqual([
      ["extracted", "split"],
      ["extracted", "split"],
    ]);
    expect(result.map((r) => r.split)).toEqual([
      { document_type: "Commercial Invoice", pages: [1] },
      { document_type: "Packing List", pages: [2] },
    ]);
  });

  it("adds evidence per extracted key only when asked", async () => {
    const [split] = await analyzeDocument(await makePdf([INVOICE]), { evidence: true });
    expect(split!.evidence).toBeDefined();
    expect(Object.keys(split!.evidence!).sort()).toEqual(Object.keys(split!.extracted).sort());
  });

  it("refuses empty bytes as empty", async () => {
    expect(await codeOf(analyzeDocument(new Uint8Array()))).toBe("empty");
  });

  it("refuses a PDF with no text on any page as empty", async () => {
    expect(await codeOf(analyzeDocument(await makePdf([[], []])))).toBe("empty");
  });

  it("refuses corrupt bytes after a PDF header as unreadable", async () => {
    const bytes = new TextEncoder().encode("%PDF-1.7\n\u0000\u0001garbage that is not a PDF at all\n%%EOF");
    expect(await codeOf(analyzeDocument(bytes))).toBe("unreadable");
  });

  it("refuses a password-protected PDF as encrypted", async () => {
    const plain = join(dir, "plain.pdf");
    const locked = join(dir, "locked.pdf");
    writeFileSync(plain, await makePdf([INVOICE]));
    execFileSync("qpdf", ["--encrypt", "u", "o", "256", "--", plain, locked]);
    expect(await codeOf(analyzeDocument(new Uint8Array(readFileSync(locked))))).toBe("encrypted");
  });

  it("refuses more pages than maxPages as limit_exceeded", async () => {
    expect(await codeOf(analyzeDocument(await makePdf([INVOICE, INVOICE, INVOICE]), { maxPages: 2 }))).toBe("limit_exceeded");
  });

  it("refuses unknown bytes and formats not supported yet as unsupported_format, naming the format", async () => {
    expect(await codeOf(analyzeDocument(new TextEncoder().encode("just some text")))).toBe("unsupported_format");
    const png = new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 0]);
    await expect(analyzeDocument(png)).rejects.toThrow(/PNG/);
  });
});
