import type { Page } from "@/lib/analysis";

/**
 * A page drawn from the text the engine read, for formats the browser cannot
 * draw itself (Word, e-mail, multi-page TIFF): each line at its place and size
 * on a white sheet, as SVG. Evidence boxes are in the same page coordinates,
 * so highlights land on the words they point at.
 */

/** Glyph heights in SVG sit on the baseline; a line's box top plus this share of its height is close to it. */
const BASELINE_SHARE = 0.8;
const MIN_FONT_SIZE = 4;
const TEXT_COLOUR = "#1f2933";

const XML_ESCAPES: Record<string, string> = { "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&apos;" };

function escapeXml(text: string): string {
  // Characters XML 1.0 cannot hold at all are dropped rather than escaped.
  return text.replace(/[\u0000-\u0008\u000b\u000c\u000e-\u001f\ufffe\uffff]/g, "").replace(/[&<>"']/g, (c) => XML_ESCAPES[c]!);
}

const round = (value: number) => Math.round(value * 10) / 10;

export function renderPageSheet(page: Page): string {
  const width = round(page.width);
  const height = round(page.height);
  const lines = page.lines
    .filter((line) => line.text.trim().length > 0)
    .map((line) => {
      const size = round(Math.max(MIN_FONT_SIZE, line.fontSize || line.height));
      const baseline = round(line.y + line.height * BASELINE_SHARE);
      // textLength keeps a line inside the width it had on the page whatever font the viewer substitutes.
      const fit = line.width > 0 ? ` textLength="${round(line.width)}" lengthAdjust="spacingAndGlyphs"` : "";
      return `<text x="${round(line.x)}" y="${baseline}" font-size="${size}"${fit}>${escapeXml(line.text)}</text>`;
    });
  return [
    `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 ${width} ${height}" width="${width}" height="${height}">`,
    `<rect width="100%" height="100%" fill="#fff"/>`,
    `<g font-family="Helvetica, Arial, sans-serif" fill="${TEXT_COLOUR}">`,
    ...lines,
    "</g>",
    "</svg>",
  ].join("\n");
}
