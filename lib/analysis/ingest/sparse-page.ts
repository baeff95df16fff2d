import type { Page } from "../types";

/** Fewer letters and digits than this on a page and its text layer may not be the page's text (see ocr-pdf.ts). */
export const MIN_TEXT_LAYER_CHARACTERS = 40;

const NOT_LETTER_OR_DIGIT = /[^\p{L}\p{N}]/gu;

/** Whether a text-layer page carries too little text to be the page's whole content. */
export function hasSparseTextLayer(page: Page): boolean {
  let characters = 0;
  for (const line of page.lines) {
    characters += line.text.replace(NOT_LETTER_OR_DIGIT, "").length;
    if (characters >= MIN_TEXT_LAYER_CHARACTERS) return false;
  }
  return true;
}
