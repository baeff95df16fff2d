import { makeLine } from "../ingest/layout";
import type { Line, Page, Word } from "../types";

/**
 * Builds Pages from plain text for tests: one string per line, top to bottom.
 * A line starting with "# " is a title (large font); "~ " is small print;
 * "|" splits a line into cells set far apart, like the columns of a form.
 */
const PAGE_WIDTH = 595;
const PAGE_HEIGHT = 842;
const BODY_SIZE = 10;
const TITLE_SIZE = 18;
const SMALL_SIZE = 6;
const MARGIN = 36;
const CHAR_WIDTH = 0.5;
const CELL_WIDTH = 260;

export function testPage(number: number, lines: readonly string[]): Page {
  const out: Line[] = [];
  let y = MARGIN;
  for (const raw of lines) {
    const size = raw.startsWith("# ") ? TITLE_SIZE : raw.startsWith("~ ") ? SMALL_SIZE : BODY_SIZE;
    const text = raw.replace(/^[#~] /, "");
    text.split("|").forEach((cell, i) => {
      const words = wordsOf(cell.trim(), MARGIN + i * CELL_WIDTH, y, size);
      if (words.length > 0) out.push(makeLine(words));
    });
    y += size * 1.4;
  }
  return { number, width: PAGE_WIDTH, height: PAGE_HEIGHT, lines: out, source: "plain" };
}

/** Pages numbered 1..n from one text block per page. */
export function testPages(...pages: ReadonlyArray<readonly string[]>): Page[] {
  return pages.map((lines, i) => testPage(i + 1, lines));
}

function wordsOf(text: string, x0: number, y: number, size: number): Word[] {
  const words: Word[] = [];
  let x = x0;
  for (const token of text.split(/\s+/).filter(Boolean)) {
    const width = token.length * size * CHAR_WIDTH;
    words.push({ text: token, x, y, width, height: size, fontSize: size, confidence: 1 });
    x += width + size * CHAR_WIDTH;
  }
  return words;
}
