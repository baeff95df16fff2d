/** Text as printed with every run of whitespace collapsed to one space, trimmed. */
export function collapseText(text: string): string {
  return text.replace(/\s+/g, " ").trim();
}

const EDGE_PUNCTUATION = /^[\s,;:.\-–—/|*]+|[\s,;:\-–—/|*]+$/g;

/** Collapsed text without stray separators at either end ("BUSAN, KOREA," → "BUSAN, KOREA"). */
export function cleanValue(text: string): string {
  return collapseText(text).replace(EDGE_PUNCTUATION, "").trim();
}
