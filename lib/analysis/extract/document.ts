/** A document prepared for extraction: its line index plus every label hit, found once. */
import { indexDocument, type DocIndex, type IndexedLine } from "./doc-index";
import { findLabels, type LabelHit } from "./labels";
import type { Page } from "../types";

export interface Doc extends DocIndex {
  /** Label hits per line id. */
  hitsByLine: LabelHit[][];
  /** Label hits per semantic label, in document order. */
  hitsByKey: Map<string, LabelHit[]>;
}

export function prepareDocument(pages: Page[]): Doc {
  const index = indexDocument(pages);
  const hitsByLine = index.lines.map((line) => findLabels(line));
  const hitsByKey = new Map<string, LabelHit[]>();
  for (const hits of hitsByLine) {
    for (const hit of hits) {
      for (const key of hit.keys) {
        const list = hitsByKey.get(key) ?? [];
        list.push(hit);
        hitsByKey.set(key, list);
      }
    }
  }
  return { ...index, hitsByLine, hitsByKey };
}

/** True when a line opens with a label (so it starts a new field). */
export function startsWithLabel(doc: Doc, line: IndexedLine): boolean {
  return doc.hitsByLine[line.id]!.some((hit) => hit.start === 0);
}
