import type { DocumentTypeId } from "../schema";
import type { Evidence, Page } from "../types";

export interface Extraction {
  /** Normalised values keyed by schema key; only keys the document carries. */
  values: Record<string, unknown>;
  /** Where each value was read, keyed like `values`. */
  evidence: Record<string, Evidence>;
}

/** Reads every schema key of `type` that the pages carry. Pages are one document's pages, in order. */
export function extractFields(type: DocumentTypeId, pages: Page[]): Extraction {
  // Placeholder until the extractors land (engine issue): extracts nothing.
  void type;
  void pages;
  return { values: {}, evidence: {} };
}
