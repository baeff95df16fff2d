import type { Word } from "../types";
import { cleanText } from "./clean-text";
import type { Pdfium } from "./pdfium-module";

/**
 * One page's text layer from PDFium's text page, character by character, as
 * the positioned words the engine's layout groups into lines. PDFium gives
 * each character's origin, advance box and matrix; characters run into a word
 * until white space, a gap wider than WORD_GAP_EM, a jump off the baseline or
 * a step back. Word boxes keep the geometry the engine's thresholds were set
 * on: the top at ASCENT_SHARE of the font size above the baseline, one font
 * size tall, in the page's displayed (rotated, top-left) space.
 */

/** Top of a glyph box above the baseline, as a share of the font size (typical Latin ascent). */
const ASCENT_SHARE = 0.8;
/** Glyph box height as a share of the font size (ascent plus descent). */
const GLYPH_HEIGHT_SHARE = 1.0;
/** A gap between two characters wider than this share of the font size ends a word (a column gap PDFium put no space in). */
const WORD_GAP_EM = 0.25;
/** A character further than this share of the font size off the word's baseline starts another word (a superscript, the next line). */
const BASELINE_JUMP_EM = 0.3;
/** Ligatures (ﬁ), full-width forms and other compatibility characters are folded (NFKC) in words that have any. */
const NON_ASCII = /[^\u0000-\u007f]/;
/** White space and control characters separate words, as they would for a reader. */
const SEPARATOR = /[\s\u0000-\u001f\u007f-\u009f]/;
/** PDFium's mark for a character it could not map to Unicode at a line's end (not text). */
const NON_CHARACTER = 0xfffe;
/**
 * What PDFium puts in place of a hyphen that ends a line (U+0002, so that a
 * viewer's copy can join the word): the page prints a hyphen there, and a
 * reference wrapped in a box ("TGM-" over "24-0133") needs it, as pdfjs gave it.
 */
const LINE_END_HYPHEN = 0x02;
const MAX_CODE_POINT = 0x10ffff;

/** Where FS_RECTF, FS_MATRIX and the origin's two doubles are written in the scratch area. */
const RECT_AT = 0;
const MATRIX_AT = 16;
const ORIGIN_AT = 40;

/** A page space → displayed space matrix [a, b, c, d, e, f] (the page's rotation and crop box, y downwards). */
export type Viewport = readonly [number, number, number, number, number, number];

/** Length of the vector (a, b); exact and quick for the axis-aligned text that most pages hold. */
function lengthOf(a: number, b: number): number {
  if (b === 0) return Math.abs(a);
  if (a === 0) return Math.abs(b);
  return Math.hypot(a, b);
}

/** A word being built: its text and where it runs along its baseline (page space). */
interface OpenWord {
  text: string;
  originX: number;
  originY: number;
  /** Start and end along the baseline direction, and the baseline's offset across it. */
  start: number;
  end: number;
  across: number;
  size: number;
  dirX: number;
  dirY: number;
}

/** The words of a loaded text page, in displayed space through `viewport`. */
export function textPageWords(pdfium: Pdfium, textPage: number, viewport: Viewport): Word[] {
  const api = pdfium.api;
  const rect = pdfium.scratch + RECT_AT;
  const matrix = pdfium.scratch + MATRIX_AT;
  const origin = pdfium.scratch + ORIGIN_AT;
  const words: Word[] = [];
  let open: OpenWord | undefined;
  const close = () => {
    if (open) pushWord(open, viewport, words);
    open = undefined;
  };
  // The text object's size and direction, read again only when the object changes.
  let object = -1;
  let size = 0;
  let dirX = 1;
  let dirY = 0;
  const count = api.FPDFText_CountChars(textPage);
  for (let i = 0; i < count; i++) {
    const code = api.FPDFText_GetUnicode(textPage, i);
    const char =
      code === LINE_END_HYPHEN && api.FPDFText_IsHyphen(textPage, i)
        ? "-"
        : code === NON_CHARACTER || code > MAX_CODE_POINT
          ? " "
          : String.fromCodePoint(code);
    if (SEPARATOR.test(char)) {
      close();
      continue;
    }
    const textObject = api.FPDFText_GetTextObject(textPage, i);
    if (textObject !== object) {
      object = textObject;
      api.FPDFText_GetMatrix(textPage, i, matrix);
      const a = pdfium.float32(matrix);
      const b = pdfium.float32(matrix + 4);
      const c = pdfium.float32(matrix + 8);
      const d = pdfium.float32(matrix + 12);
      // The nominal size (Tf) scaled by the text and drawing matrices, as pdfjs sizes its items.
      const nominal = api.FPDFText_GetFontSize(textPage, i);
      size = nominal * (lengthOf(c, d) || lengthOf(a, b));
      const scaleX = lengthOf(a, b);
      dirX = scaleX > 0 ? a / scaleX : 1;
      dirY = scaleX > 0 ? b / scaleX : 0;
    }
    if (!(size > 0)) {
      close();
      continue;
    }
    api.FPDFText_GetCharOrigin(textPage, i, origin, origin + 8);
    const x = pdfium.float64(origin);
    const y = pdfium.float64(origin + 8);
    api.FPDFText_GetLooseCharBox(textPage, i, rect);
    const left = pdfium.float32(rect);
    const top = pdfium.float32(rect + 4);
    const right = pdfium.float32(rect + 8);
    const bottom = pdfium.float32(rect + 12);
    const start = x * dirX + y * dirY;
    // The advance box's far edge along the baseline (exact for axis-aligned text).
    const end = Math.max(start, Math.max(left * dirX, right * dirX) + Math.max(bottom * dirY, top * dirY));
    const across = y * dirX - x * dirY;
    if (open) {
      const apart =
        open.dirX !== dirX ||
        open.dirY !== dirY ||
        start - open.end > WORD_GAP_EM * Math.max(size, open.size) ||
        Math.abs(across - open.across) > BASELINE_JUMP_EM * Math.max(size, open.size) ||
        start < open.start;
      if (apart) close();
    }
    if (open) {
      open.text += char;
      open.end = Math.max(open.end, end);
      open.size = Math.max(open.size, size);
    } else {
      open = { text: char, originX: x, originY: y, start, end, across, size, dirX, dirY };
    }
  }
  close();
  return words;
}

/** A finished word in displayed space, boxed as pdf.ts boxed pdfjs's words. */
function pushWord(word: OpenWord, viewport: Viewport, out: Word[]): void {
  const [v0, v1, v2, v3, v4, v5] = viewport;
  const text = cleanText(NON_ASCII.test(word.text) ? word.text.normalize("NFKC") : word.text);
  const width = word.end - word.start;
  const baseX = v0 * word.originX + v2 * word.originY + v4;
  const baseY = v1 * word.originX + v3 * word.originY + v5;
  // The baseline's direction once displayed (1,0 for ordinary text).
  const dirX = v0 * word.dirX + v2 * word.dirY;
  out.push({
    text,
    x: dirX >= 0 ? baseX : baseX - width,
    y: baseY - ASCENT_SHARE * word.size,
    width,
    height: GLYPH_HEIGHT_SHARE * word.size,
    fontSize: word.size,
    confidence: 1,
  });
}
