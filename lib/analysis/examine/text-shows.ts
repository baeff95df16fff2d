/**
 * What a document's own text shows, for a fact the reader did not extract
 * from it. A value missing on one document is never replaced by what the
 * other documents say (that would hide the very conflict examined): the
 * examination looks for the other document's value in this document's text.
 */
import type { Doc } from "./presentation";
import { foldConfusables, referenceKey } from "./similarity";

/** Shorter references (a "1", "AB12") would be found by chance in any page of text. */
const MIN_REFERENCE_CHARS = 6;

/**
 * Whether `doc`'s text shows the reference (modulo OCR confusions and
 * punctuation, as references are compared); undefined when it has no text or
 * the reference is too short to look for.
 */
export function textShowsReference(doc: Doc, reference: string): boolean | undefined {
  const key = referenceKey(reference);
  if (!doc.text || key.length < MIN_REFERENCE_CHARS) return undefined;
  return referenceKey(doc.text).includes(key);
}

function compactWords(text: string): string {
  return foldConfusables(text.toUpperCase().replace(/[^A-Z0-9]/g, ""));
}

/** Whether `doc`'s text shows a name (a vessel's), its words run together; undefined without text. */
export function textShowsName(doc: Doc, name: string): boolean | undefined {
  const key = compactWords(name);
  if (!doc.text || key.length < MIN_REFERENCE_CHARS) return undefined;
  return compactWords(doc.text).includes(key);
}
