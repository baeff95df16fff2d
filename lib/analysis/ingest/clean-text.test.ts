import { describe, expect, it } from "vitest";
import { makeDocx } from "@/test/fixtures/formats/docx-fixtures";
import type { Page } from "../types";
import { cleanText } from "./clean-text";
import { ingestDocument } from "./index";

/**
 * A one-page PDF in Helvetica whose font's ToUnicode map says "A" is U+0000,
 * as a damaged or hostile PDF can: pdf.js then hands out text with NUL in it.
 */
function pdfWithNulMapping(): Uint8Array {
  const cmap = "/CIDInit /ProcSet findresource begin 12 dict begin begincmap /CMapName /X def 1 begincodespacerange <00> <FF> endcodespacerange 1 beginbfchar <41> <0000> endbfchar endcmap CMapName currentdict /CMap defineresource pop end end";
  const content = "BT /F1 12 Tf 72 700 Td (INVOICE No 4471 \\001\\002SUM A USD) Tj ET";
  const objects = [
    "<< /Type /Catalog /Pages 2 0 R >>",
    "<< /Type /Pages /Kids [3 0 R] /Count 1 >>",
    "<< /Type /Page /Parent 2 0 R /MediaBox [0 0 595 842] /Contents 4 0 R /Resources << /Font << /F1 5 0 R >> >> >>",
    `<< /Length ${content.length} >>\nstream\n${content}\nendstream`,
    "<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica /ToUnicode 6 0 R >>",
    `<< /Length ${cmap.length} >>\nstream\n${cmap}\nendstream`,
  ];
  let pdf = "%PDF-1.4\n";
  const offsets = objects.map((object, i) => {
    const at = pdf.length;
    pdf += `${i + 1} 0 obj\n${object}\nendobj\n`;
    return at;
  });
  const xref = pdf.length;
  pdf += `xref\n0 ${objects.length + 1}\n0000000000 65535 f \n${offsets.map((o) => `${String(o).padStart(10, "0")} 00000 n \n`).join("")}`;
  pdf += `trailer\n<< /Size ${objects.length + 1} /Root 1 0 R >>\nstartxref\n${xref}\n%%EOF\n`;
  return new Uint8Array(Buffer.from(pdf, "latin1"));
}

/** What PostgreSQL refuses in text and jsonb: U+0000, and a surrogate without its pair; plus the other controls no reader means. */
const UNSTORABLE = /[\u0000-\u001f\u007f-\u009f]|[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/;

function allText(pages: Page[]): string[] {
  return pages.flatMap((page) => page.lines.flatMap((line) => [line.text, ...line.words.map((word) => word.text)]));
}

describe("control characters in extracted text", () => {
  it("takes NUL and other controls out of a PDF's text layer, keeping the words around them", async () => {
    const pages = await ingestDocument(pdfWithNulMapping());
    const texts = allText(pages);
    expect(texts.filter((text) => UNSTORABLE.test(text))).toEqual([]);
    const words = pages.flatMap((page) => page.lines.flatMap((line) => line.words.map((word) => word.text)));
    expect(words).toEqual(expect.arrayContaining(["INVOICE", "No", "4471", "SUM", "USD"]));
  });

  it("takes control characters and lone surrogates out of a DOCX's text", async () => {
    const body = '<w:p><w:r><w:t xml:space="preserve">Bill &#1;of Lading &#xD800;MAEU241100</w:t></w:r></w:p>';
    const pages = await ingestDocument(makeDocx([body]));
    expect(allText(pages).filter((text) => UNSTORABLE.test(text))).toEqual([]);
    expect(JSON.stringify(pages)).toContain("MAEU241100");
  });

  it("keeps the length of the text, so that offsets into it stay valid", () => {
    expect(cleanText("AB\u0000CD\ud800E\u0085")).toBe("AB CD\ufffdE ");
    expect(cleanText("Ünïcode 𐀀 kept")).toBe("Ünïcode 𐀀 kept");
  });
});
