import { describe, expect, it } from "vitest";
import type { Line, Page } from "@/lib/analysis";
import { renderPageSheet } from "./page-sheet";

function line(text: string, x: number, y: number, width = 120, height = 10): Line {
  return { text, words: [], x, y, width, height, fontSize: height };
}

function page(lines: Line[]): Page {
  return { number: 1, width: 595.3, height: 841.9, lines, source: "docx" };
}

describe("renderPageSheet", () => {
  it("draws every line at its place, on a sheet the size of the page", () => {
    const svg = renderPageSheet(page([line("COMMERCIAL INVOICE", 72, 60, 200, 14), line("Invoice No. 4471", 72, 100)]));
    expect(svg).toMatch(/^<svg xmlns="http:\/\/www\.w3\.org\/2000\/svg" viewBox="0 0 595\.3 841\.9"/);
    expect(svg).toContain('<text x="72" y="71.2" font-size="14" textLength="200" lengthAdjust="spacingAndGlyphs">COMMERCIAL INVOICE</text>');
    expect(svg).toContain('<text x="72" y="108" font-size="10" textLength="120" lengthAdjust="spacingAndGlyphs">Invoice No. 4471</text>');
  });

  it("escapes markup in the document's text and drops characters XML cannot hold", () => {
    const svg = renderPageSheet(page([line(`<script>alert("x")</script> & 'co'\u0007`, 10, 10)]));
    expect(svg).not.toContain("<script");
    expect(svg).toContain("&lt;script&gt;alert(&quot;x&quot;)&lt;/script&gt; &amp; &apos;co&apos;</text>");
    expect(svg).not.toContain("\u0007");
  });

  it("leaves blank lines out and keeps a blank page a white sheet", () => {
    const svg = renderPageSheet(page([line("   ", 10, 10)]));
    expect(svg).not.toContain("<text");
    expect(svg).toContain('<rect width="100%" height="100%" fill="#fff"/>');
  });
});
