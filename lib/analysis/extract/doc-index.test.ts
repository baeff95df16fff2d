import { describe, expect, test } from "vitest";
import type { Line, Page, Word } from "../types";
import { indexDocument, lineHeight } from "./doc-index";
import { extractFields } from "./index";

const FONT_SIZE = 9;
const CHAR_WIDTH = 5.4;

/** An OCR word as tesseract boxes it: `top` and `height` of its ink, the line's font size estimated. */
function word(text: string, x: number, top: number, height: number, confidence = 0.95): Word {
  return { text, x, y: top, width: text.length * CHAR_WIDTH, height, fontSize: FONT_SIZE, confidence };
}

function line(words: Word[]): Line {
  const first = words[0]!;
  const last = words.at(-1)!;
  const y = Math.min(...words.map((w) => w.y));
  return { text: words.map((w) => w.text).join(" "), words, x: first.x, y, width: last.x + last.width - first.x, height: Math.max(...words.map((w) => w.y + w.height)) - y, fontSize: FONT_SIZE };
}

function ocrPage(lines: Line[]): Page {
  return { number: 1, width: 612, height: 792, lines, source: "ocr" };
}

/** Words set on one baseline, caps 6 pt tall, spaced as printed. */
function phrase(text: string, x: number, baseline: number, confidence = 0.95): Word[] {
  let at = x;
  return text.split(" ").map((t) => {
    const w = word(t, at, baseline - 6, 6, confidence);
    at += (t.length + 1) * CHAR_WIDTH;
    return w;
  });
}

describe("OCR lines in the index", () => {
  test("a label and its value share a row by their baseline, whatever ink rises above it", () => {
    const label = phrase("Notify Party", 124, 259);
    // A speck fused to the H: the value's box reaches 12 pt above its baseline, the label's only 6.
    const value = [word("HORIZON", 395, 247, 12), ...phrase("FORWARDING LLC", 395 + 8 * CHAR_WIDTH, 259)];
    const index = indexDocument([ocrPage([line(label), line(value)])]);
    expect(index.rows).toHaveLength(1);
    // Distances are measured in the font's height, as on a text layer, not in the height of the caps.
    expect(lineHeight(index.lines[0]!)).toBe(FONT_SIZE);
  });

  test("a lone short word read with little confidence is a speck: the value past it is the label's", () => {
    const page = ocrPage([
      line(phrase("Shipped from:", 124, 340)),
      line([word("4", 322, 330, 10, 0.42)]),
      line(phrase("ABIDJAN", 527, 340)),
    ]);
    expect(indexDocument([page]).lines.map((l) => l.text)).toEqual(["Shipped from:", "ABIDJAN"]);
    expect(extractFields("bill_of_lading", [page]).values.port_of_loading).toBe("ABIDJAN");
  });

  test("a short word read with confidence, or a text layer's, stays", () => {
    const confident = ocrPage([line(phrase("Packages", 124, 340)), line([word("24", 322, 334, 6, 0.9)])]);
    expect(indexDocument([confident]).lines.map((l) => l.text)).toEqual(["Packages", "24"]);
    const digital: Page = { ...ocrPage([line(phrase("Packages", 124, 340)), line([word("24", 322, 334, 6, 0.3)])]), source: "text-layer" };
    expect(indexDocument([digital]).lines.map((l) => l.text)).toEqual(["Packages", "24"]);
  });
});
