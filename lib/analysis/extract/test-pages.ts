/**
 * Lays out plain text as a Page with word boxes, for tests: one text row per
 * line, a monospace grid, and a run of COLUMN_GAP or more spaces starting a new
 * Line on the same row (as a PDF text layer splits two columns).
 */
import type { Line, Page, Word } from "../types";

const CHAR_WIDTH = 6;
const ROW_HEIGHT = 12;
const FONT_SIZE = 10;
/** Rows drawn in small type (printed captions) are this size. */
const SMALL_SIZE = 7;
const MARGIN = 36;
const PAGE_WIDTH = 612;
const PAGE_HEIGHT = 792;
const COLUMN_GAP = 3;

function makeLine(words: Word[], fontSize: number): Line {
  const first = words[0]!;
  const last = words[words.length - 1]!;
  return {
    text: words.map((w) => w.text).join(" "),
    words,
    x: first.x,
    y: first.y,
    width: last.x + last.width - first.x,
    height: first.height,
    fontSize,
  };
}

/** Marks a row printed in small type (SMALL_SIZE): its first character, dropped from the page. */
const SMALL_ROW = "°";

/** A Page from text; every row is ROW_HEIGHT tall and every character CHAR_WIDTH wide; rows starting with SMALL_ROW are in small type. */
export function layoutPage(text: string, number = 1): Page {
  const lines: Line[] = [];
  text.split("\n").forEach((marked, rowIndex) => {
    const y = MARGIN + rowIndex * ROW_HEIGHT;
    const size = marked.startsWith(SMALL_ROW) ? SMALL_SIZE : FONT_SIZE;
    const row = marked.startsWith(SMALL_ROW) ? ` ${marked.slice(1)}` : marked;
    let current: Word[] = [];
    let lastEnd = -Infinity;
    for (const m of row.matchAll(/\S+/g)) {
      if (m.index - lastEnd >= COLUMN_GAP && current.length > 0) {
        lines.push(makeLine(current, size));
        current = [];
      }
      current.push({
        text: m[0],
        x: MARGIN + m.index * CHAR_WIDTH,
        y,
        width: m[0].length * CHAR_WIDTH,
        height: size,
        fontSize: size,
        confidence: 1,
      });
      lastEnd = m.index + m[0].length;
    }
    if (current.length > 0) lines.push(makeLine(current, size));
  });
  return { number, width: PAGE_WIDTH, height: PAGE_HEIGHT, lines, source: "text-layer" };
}

/** Pages from texts, numbered from 1. */
export function layoutPages(...texts: string[]): Page[] {
  return texts.map((text, i) => layoutPage(text, i + 1));
}
