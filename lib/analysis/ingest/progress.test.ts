import { describe, expect, it } from "vitest";
import { makeMixedPdf } from "@/test/fixtures/formats/scanned-pdf";
import { OCR_TEST_TIMEOUT_MS } from "@/test/fixtures/formats/scan-fixtures";
import { INVOICE_LINES } from "@/test/fixtures/formats/sample-text";
import type { ReadingProgress } from "../types";
import { ingestDocument } from ".";

const COVER_LETTER = ["COVERING SCHEDULE", "We enclose the following documents presented under credit LC58213409:", "Commercial invoice in 3 originals"];

describe("ingestDocument's onProgress", { timeout: OCR_TEST_TIMEOUT_MS }, () => {
  it("counts text-layer pages as read at once, then each scanned page as OCR reads it", async () => {
    const pdf = await makeMixedPdf([{ digital: COVER_LETTER }, { scanned: { lines: INVOICE_LINES } }, { scanned: { lines: INVOICE_LINES.slice(0, 6) } }]);
    const reports: ReadingProgress[] = [];
    const pages = await ingestDocument(pdf, { onProgress: (progress) => reports.push(progress) });
    expect(pages).toHaveLength(3);
    expect(reports).toEqual([
      { pagesDone: 1, pagesTotal: 3 },
      { pagesDone: 2, pagesTotal: 3 },
      { pagesDone: 3, pagesTotal: 3 },
      { pagesDone: 3, pagesTotal: 3 },
    ]);
  });

  it("reports a digital file's pages once, read", async () => {
    const pdf = await makeMixedPdf([{ digital: COVER_LETTER }, { digital: COVER_LETTER }]);
    const reports: ReadingProgress[] = [];
    await ingestDocument(pdf, { onProgress: (progress) => reports.push(progress) });
    expect(reports.at(-1)).toEqual({ pagesDone: 2, pagesTotal: 2 });
    expect(reports.every((r) => r.pagesTotal === 2)).toBe(true);
  });
});
