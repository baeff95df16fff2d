/** A value as read from the page: its text and the line ranges it came from, turned into Evidence. */
import type { Box, Evidence } from "../types";
import type { IndexedLine } from "./doc-index";

export interface Part {
  line: IndexedLine;
  start: number;
  end: number;
}

export interface Found {
  text: string;
  parts: Part[];
  confidence: number;
}

/**
 * Confidence of a value read next to its label, in the next cell of its row
 * (near, or far across white space), below its label, in a table, summed
 * over a table's rows (no TOTAL row printed), or by a fallback rule.
 */
export const CONFIDENCE = { sameLine: 0.95, right: 0.9, farRight: 0.8, below: 0.85, table: 0.8, summed: 0.7, tag: 0.95, scan: 0.6 } as const;

export function partOf(line: IndexedLine, start = 0, end = line.text.length): Part {
  return { line, start, end };
}

/** A Found from parts, its text joined with `separator`. */
export function foundOf(parts: Part[], confidence: number, separator = " "): Found {
  const text = parts.map((p) => p.line.text.slice(p.start, p.end).trim()).filter(Boolean).join(separator);
  return { text, parts, confidence };
}

/** Narrows a Found to a substring of its text, keeping only the parts it touches. */
export function narrowFound(found: Found, start: number, end: number): Found {
  const parts: Part[] = [];
  let offset = 0;
  for (const part of found.parts) {
    const raw = part.line.text.slice(part.start, part.end);
    const lead = raw.length - raw.trimStart().length;
    const length = raw.trim().length;
    const from = Math.max(start, offset);
    const to = Math.min(end, offset + length);
    if (from < to) parts.push({ line: part.line, start: part.start + lead + from - offset, end: part.start + lead + to - offset });
    offset += length + 1;
  }
  return { text: found.text.slice(start, end), parts: parts.length > 0 ? parts : found.parts, confidence: found.confidence };
}

/** Page, box (fractions of the page, origin top-left), raw text and confidence of a Found. */
export function evidenceOf(found: Found): Evidence {
  const page = found.parts[0]!.line.page;
  let [x0, y0, x1, y1] = [Infinity, Infinity, -Infinity, -Infinity];
  for (const part of found.parts) {
    if (part.line.page !== page) continue;
    part.line.words.forEach((word, i) => {
      const wordStart = part.line.starts[i]!;
      if (wordStart >= part.end || wordStart + word.text.length <= part.start) return;
      x0 = Math.min(x0, word.x);
      y0 = Math.min(y0, word.y);
      x1 = Math.max(x1, word.x + word.width);
      y1 = Math.max(y1, word.y + word.height);
    });
  }
  if (!Number.isFinite(x0)) [x0, y0, x1, y1] = [0, 0, 0, 0];
  const clamp = (v: number) => Math.min(1, Math.max(0, v));
  const bbox: Box = [clamp(x0 / page.width), clamp(y0 / page.height), clamp(x1 / page.width), clamp(y1 / page.height)];
  return { page: page.number, bbox, text: found.text, confidence: found.confidence };
}
