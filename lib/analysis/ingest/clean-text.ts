import type { Page } from "../types";

/**
 * Text a document may carry but no reader means as text: C0 and C1 control
 * characters (a PDF font's ToUnicode map can name U+0000, a DOCX can hold
 * &#1;) and UTF-16 surrogates without their pair. PostgreSQL refuses both in
 * text and jsonb (U+0000 "cannot be converted to text", a lone surrogate is
 * invalid Unicode), so a stored analysis holding one failed with a 500 (found
 * by `npm run fuzz`). They are taken out where text enters the engine.
 */
const CONTROL = /[\u0000-\u001f\u007f-\u009f]/g;
const LONE_SURROGATE = /[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/g;

/** The text with each control character as a space (so it separates words) and each lone surrogate as U+FFFD; the length is kept, so character offsets stay valid. */
export function cleanText(text: string): string {
  return text.replace(CONTROL, " ").replace(LONE_SURROGATE, "\ufffd");
}

/**
 * Pages with no control character or lone surrogate left in any word or line:
 * the one pass every format's pages go through. A word that was only control
 * characters is dropped, and a line left with no word too.
 */
export function cleanPages(pages: Page[]): Page[] {
  for (const page of pages) {
    page.lines = page.lines.filter((line) => {
      line.text = cleanText(line.text);
      line.words = line.words.filter((word) => {
        word.text = cleanText(word.text).replace(/\s+/g, "");
        return word.text.length > 0;
      });
      return line.words.length > 0;
    });
  }
  return pages;
}
