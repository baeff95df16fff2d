import type { Word } from "../types";

/**
 * Lays flowing text (DOCX paragraphs and table rows, e-mail bodies) onto pages
 * the way a simple typesetter would, so that formats without page geometry
 * reach the classifier as positioned words like a PDF's: fixed advance per
 * character, lines wrapped at the margin, a new page when one is full.
 */
export const A4: [number, number] = [595.28, 841.89];
/** Word's default margins: 1 inch all round. */
export const DEFAULT_MARGINS: Margins = [72, 72, 72, 72];
/**
 * Advances as a share of the font size, by kind of character (Arial/Helvetica
 * metrics, rounded): capitals and digits are wider than the 0.5 em average of
 * lower-case text, spaces and punctuation narrower. A form's capitals laid at
 * the average width ran past the margin that Word fits them in.
 */
const CHAR_WIDTH_PER_EM = 0.5;
const UPPER_WIDTH_PER_EM = 0.66;
const DIGIT_WIDTH_PER_EM = 0.556;
const NARROW_WIDTH_PER_EM = 0.28;
const NARROW = /[\s.,:;'’!|/()\-[\]iljtfI]/;

function textWidth(text: string, fontSize: number): number {
  let ems = 0;
  for (const ch of text) ems += NARROW.test(ch) ? NARROW_WIDTH_PER_EM : /[A-Z]/.test(ch) ? UPPER_WIDTH_PER_EM : /\d/.test(ch) ? DIGIT_WIDTH_PER_EM : CHAR_WIDTH_PER_EM;
  return ems * fontSize;
}
const LINE_HEIGHT_PER_EM = 1.2;
/**
 * A tab without a custom stop after it separates a label from its value: wider
 * than the layout's line gap, so they read as columns. Custom stops (w:tabs)
 * put text where the author aligned it, as forms retyped in Word do.
 */
const TAB_WIDTH_PER_EM = 2;
/** A picture at least this share of the page tall is a page of its own (a pasted scan). */
const FULL_PAGE_IMAGE_SHARE = 0.5;
const CELL_PADDING = 4;

/** Top, right, bottom, left, in points. */
export type Margins = [number, number, number, number];

export interface PageDraft {
  words: Word[];
  images: string[];
}

export class Typesetter {
  readonly pages: PageDraft[] = [{ words: [], images: [] }];
  private y: number;

  constructor(
    private readonly size: [number, number],
    private readonly margins: Margins,
  ) {
    this.y = margins[0];
  }

  private get contentLeft(): number {
    return this.margins[3];
  }

  private get contentWidth(): number {
    return this.size[0] - this.margins[1] - this.margins[3];
  }

  private get page(): PageDraft {
    return this.pages[this.pages.length - 1]!;
  }

  breakPage(): void {
    if (this.page.words.length === 0 && this.page.images.length === 0) return;
    this.pages.push({ words: [], images: [] });
    this.y = this.margins[0];
  }

  /** Lays out text in a column from x to x + width; returns the height used. */
  private setText(text: string, x: number, width: number, fontSize: number, y: number, tabStops: readonly number[] = []): number {
    let line = 0;
    for (const visualLine of text.split("\n")) {
      let cursor = x;
      for (const token of visualLine.split(/( +|\t)/)) {
        if (token === "\t") {
          const stop = tabStops.find((s) => x + s > cursor);
          cursor = stop === undefined || x + stop > x + width ? cursor + TAB_WIDTH_PER_EM * fontSize : x + stop;
        }
        else if (/^ +$/.test(token)) cursor += textWidth(token, fontSize);
        if (!token.trim()) continue;
        const wordWidth = textWidth(token, fontSize);
        if (cursor + wordWidth > x + width && cursor > x) {
          line++;
          cursor = x;
        }
        const wordY = y + line * LINE_HEIGHT_PER_EM * fontSize;
        this.page.words.push({ text: token, x: cursor, y: wordY, width: wordWidth, height: fontSize, fontSize, confidence: 1 });
        cursor += wordWidth;
      }
      line++;
    }
    return line * LINE_HEIGHT_PER_EM * fontSize;
  }

  private reserve(height: number): void {
    if (this.y + height > this.size[1] - this.margins[2]) this.breakPage();
  }

  paragraph(text: string, fontSize: number, tabStops?: readonly number[]): void {
    this.reserve(LINE_HEIGHT_PER_EM * fontSize);
    this.y += this.setText(text, this.contentLeft, this.contentWidth, fontSize, this.y, tabStops);
  }

  row(cells: string[], fontSize: number): void {
    this.reserve(LINE_HEIGHT_PER_EM * fontSize);
    const cellWidth = this.contentWidth / Math.max(cells.length, 1);
    const heights = cells.map((cell, i) => this.setText(cell, this.contentLeft + i * cellWidth, cellWidth - CELL_PADDING, fontSize, this.y));
    this.y += Math.max(LINE_HEIGHT_PER_EM * fontSize, ...heights);
  }

  image(relationshipId: string, heightPoints: number): void {
    if (heightPoints < FULL_PAGE_IMAGE_SHARE * this.size[1]) return;
    this.breakPage();
    this.page.images.push(relationshipId);
    this.y = this.size[1];
  }
}

