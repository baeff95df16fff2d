/**
 * Values taught on a layout, read on the next document of that layout. The
 * hints are the app's (what its checkers taught, per organization); the
 * engine only reads them: a document takes a hint when it is of the hint's
 * type, its labels sit where the hint's do (layoutSimilarity at least
 * LAYOUT_MATCH_THRESHOLD) and its issuer is the hint's. Each taught field is
 * read at its place; a place that reads nothing leaves the engine's value.
 */
import { DOCUMENT_TYPES, type DocumentTypeId, type FieldKind } from "../schema";
import type { Evidence, LayoutHint, Page } from "../types";
import { issuerKeyOf, layoutFingerprint, layoutSimilarity } from "./fingerprint";
import { boxOf, readAtPlace } from "./place";

/**
 * Share of labels two documents must have in common at the same place to be
 * one layout. Chosen on the development layout families (bench/teach.ts,
 * 3 templates per family and type): documents of one template share
 * 0.41–0.93 of their labels (median 0.81), documents of other templates at
 * most 0.23 (median 0.03).
 */
export const LAYOUT_MATCH_THRESHOLD = 0.35;

interface Extraction {
  values: Record<string, unknown>;
  evidence: Record<string, Evidence>;
}

/** The extraction with the taught fields of the matching hint read at their places (a new object; the input is left as it was). */
export function applyLayoutHints(type: DocumentTypeId, pages: readonly Page[], extraction: Extraction, hints: readonly LayoutHint[]): Extraction {
  const ofType = hints.filter((hint) => hint.documentType === type);
  if (ofType.length === 0 || pages.length === 0) return extraction;
  const fingerprint = layoutFingerprint(pages);
  const ranked = ofType
    .map((hint) => ({ hint, similarity: layoutSimilarity(fingerprint, hint.fingerprint) }))
    .filter((r) => r.similarity >= LAYOUT_MATCH_THRESHOLD)
    .sort((a, b) => b.similarity - a.similarity);
  const kinds = DOCUMENT_TYPES[type].fields as Record<string, FieldKind>;
  for (const { hint } of ranked) {
    const values = { ...extraction.values };
    const evidence = { ...extraction.evidence };
    for (const [field, place] of Object.entries(hint.fields)) {
      const kind = kinds[field];
      if (!kind) continue;
      const read = readAtPlace(pages, place, field, kind);
      if (!read) continue;
      values[field] = read.value;
      evidence[field] = {
        page: read.page.number,
        bbox: boxOf(read.page, read.words),
        text: read.words.map((w) => w.text).join(" "),
        confidence: Math.min(...read.words.map((w) => w.confidence)),
        taught: { layout: hint.id, source: place.source },
      };
    }
    // The issuer as read with the taught values: a taught issuer's name counts.
    if (issuerKeyOf(values) !== hint.issuer) continue;
    const order = Object.keys(kinds);
    const inOrder = <T>(record: Record<string, T>) => Object.fromEntries(order.filter((k) => k in record).map((k) => [k, record[k]!]));
    return { values: inOrder(values), evidence: inOrder(evidence) };
  }
  return extraction;
}
