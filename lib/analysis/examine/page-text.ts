import type { Page } from "../types";
import type { ExaminedDocument } from "./types";

/**
 * What the clause rules need of a page (clean B/L notations, :47A: conditions,
 * :44D: and amendment wording): its text and whether OCR read it. Kept with a
 * stored analysis, so that examining it later by id reads what the file did.
 */
export interface PageText {
  number: number;
  text: string;
  ocr: boolean;
}

export function pageTextsOf(pages: Page[]): PageText[] {
  return pages.map((p) => ({ number: p.number, text: p.lines.map((l) => l.text).join("\n"), ocr: p.source === "ocr" }));
}

/** The text of one split's pages, in file order, and where it came from. */
export function splitTextOf(pageTexts: PageText[], splitPages: number[]): Pick<ExaminedDocument, "text" | "textSource"> {
  const own = pageTexts.filter((p) => splitPages.includes(p.number));
  return { text: own.map((p) => p.text).join("\n"), textSource: own.some((p) => p.ocr) ? "ocr" : "text-layer" };
}
