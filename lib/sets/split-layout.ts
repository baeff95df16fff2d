/**
 * Hand corrections of a file's splits, as pure functions over a layout (each
 * split's type and pages): change a type, start a new document at a page,
 * merge a split into the one before it. The corrected splits are then
 * extracted again from the stored pages, so fields follow the correction.
 */
import type { Page, SplitResult } from "@/lib/analysis";
import { extractFields } from "@/lib/analysis/extract";
import { type DocumentTypeId, idOfLabel, labelOf } from "@/lib/analysis/schema";
import { ApiError } from "@/lib/errors";

export interface LayoutSplit {
  document_type: DocumentTypeId;
  /** 1-based page numbers in file order. */
  pages: number[];
}

export type SplitCorrection =
  | { action: "retype"; splitIndex: number; documentType: DocumentTypeId }
  | { action: "split"; page: number }
  | { action: "merge"; splitIndex: number }
  | { action: "reset" };

/** The layout of analysed splits; labels the engine wrote are always known ids. */
export function layoutOf(splits: SplitResult[]): LayoutSplit[] {
  return splits.map((s) => ({ document_type: idOfLabel(s.split.document_type) ?? "other", pages: [...s.split.pages] }));
}

function splitAt(layout: LayoutSplit[], index: number): LayoutSplit {
  const split = layout[index];
  if (!split) throw new ApiError("invalid_input", `There is no split ${index + 1}; the file has ${layout.length}.`);
  return split;
}

/** Applies one correction to `current`; `original` is the engine's layout, which `reset` returns to. */
export function applyCorrection(current: LayoutSplit[], correction: SplitCorrection, original: LayoutSplit[]): LayoutSplit[] {
  switch (correction.action) {
    case "reset":
      return original.map((s) => ({ ...s, pages: [...s.pages] }));
    case "retype": {
      const split = splitAt(current, correction.splitIndex);
      if (split.document_type === correction.documentType) {
        throw new ApiError("invalid_input", `Split ${correction.splitIndex + 1} is already a ${labelOf(correction.documentType)}.`);
      }
      return current.map((s, i) => (i === correction.splitIndex ? { ...s, document_type: correction.documentType } : s));
    }
    case "split": {
      const index = current.findIndex((s) => s.pages.includes(correction.page));
      if (index < 0) throw new ApiError("invalid_input", `The file has no page ${correction.page}.`);
      const split = current[index]!;
      if (split.pages[0] === correction.page) {
        throw new ApiError("invalid_input", `Page ${correction.page} already starts a document.`);
      }
      const before = { ...split, pages: split.pages.filter((p) => p < correction.page) };
      const after = { ...split, pages: split.pages.filter((p) => p >= correction.page) };
      return [...current.slice(0, index), before, after, ...current.slice(index + 1)];
    }
    case "merge": {
      if (correction.splitIndex === 0) throw new ApiError("invalid_input", "The first split has no previous split to merge with.");
      const split = splitAt(current, correction.splitIndex);
      const previous = current[correction.splitIndex - 1]!;
      const merged = { ...previous, pages: [...previous.pages, ...split.pages].sort((a, b) => a - b) };
      return [...current.slice(0, correction.splitIndex - 1), merged, ...current.slice(correction.splitIndex + 1)];
    }
  }
}

/** Extracts every split of a layout from the file's pages, with evidence, as the engine would. */
export function extractLayout(layout: LayoutSplit[], pages: Page[]): SplitResult[] {
  const byNumber = new Map(pages.map((p) => [p.number, p]));
  return layout.map((split) => {
    const docPages = split.pages.map((n) => byNumber.get(n)).filter((p): p is Page => p !== undefined);
    const { values, evidence } = extractFields(split.document_type, docPages);
    return { split: { document_type: labelOf(split.document_type), pages: [...split.pages] }, extracted: values, evidence };
  });
}
