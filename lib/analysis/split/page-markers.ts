import type { Line, Page } from "../types";
import { normalizeText } from "../classify/normalize-text";

/**
 * What a page says about where its document starts and ends: its page counter,
 * the reference numbers it prints, and whether it is marked original or copy.
 */
export interface Pagination {
  current: number;
  total?: number;
}

export type CopyMark = "original" | "copy";

export interface PageMarkers {
  pagination?: Pagination;
  /** First value seen per kind of reference: invoice, bl, certificate, lc, contract. */
  refs: Map<string, string>;
  copyMark?: CopyMark;
  /** Distinct normalised words, to tell a repeated page (an original's copy) from a continuation. */
  words: Set<string>;
}

/** Totals above this are not page counts (they are quantities or dates). */
const MAX_PAGE_TOTAL = 99;
/** A copy mark is a stamp or a heading: a line of at most this many words. */
const MARK_MAX_WORDS = 4;
/** A reference value: letters, digits and separators with at least one digit. */
const REF_VALUE = String.raw`([A-Z0-9][A-Z0-9\-\/.]*\d[A-Z0-9\-\/.]*)`;
/** A reference value opening a line (the value printed below its label). */
const REF_VALUE_AT_START = new RegExp(`^${REF_VALUE}`, "i");
const REF_LABEL_TAIL = String.raw`\s*(?:NO\.?|NUMBER|NR\.?|#)\s*[:.]?\s*`;

const PAGINATION_PATTERNS: readonly RegExp[] = [
  /\b(?:PAGE|PG|SHEET)\.?\s*(\d{1,2})\s*(?:OF|\/)\s*(\d{1,2})\b/i,
  /\b(?:PAGE|SHEET)\s*(?:NO\.?)?\s*[:.]?\s*(\d{1,2})\b/i,
  /^\s*[-–(]?\s*(\d{1,2})\s*(?:\/|OF)\s*(\d{1,2})\s*[-–)]?\s*$/i,
];
/** A SWIFT message's ":27:" sequence: a counter that restarts with each message. */
const MT_SEQUENCE = /^:?27:\s*(?:[A-Za-z ]*?)?\s*(\d{1,2})\s*\/\s*(\d{1,2})\b/;
const MT_SEQUENCE_LABEL = /^:?27:/;
const SEQUENCE_VALUE = /^\s*(\d{1,2})\s*\/\s*(\d{1,2})\s*$/;

const REF_PATTERNS: ReadonlyArray<readonly [kind: string, label: RegExp, sameLine: RegExp]> = [
  ["invoice", /\bINVOICE\s*(?:NO|NUMBER|NR|#)/i, new RegExp(String.raw`\bINVOICE${REF_LABEL_TAIL}${REF_VALUE}`, "i")],
  ["bl", /\b(?:B\/L|BILL OF LADING|BL)\s*(?:NO|NUMBER|NR|#)/i, new RegExp(String.raw`\b(?:B\/L|BILL OF LADING|BL)${REF_LABEL_TAIL}${REF_VALUE}`, "i")],
  ["certificate", /\bCERTIFICATE\s*(?:NO|NUMBER|NR|#)/i, new RegExp(String.raw`\bCERTIFICATE${REF_LABEL_TAIL}${REF_VALUE}`, "i")],
  ["contract", /\bCONTRACT\s*(?:NO|NUMBER|NR|#)/i, new RegExp(String.raw`\bCONTRACT${REF_LABEL_TAIL}${REF_VALUE}`, "i")],
  ["lc", /\b(?:L\/C|LC|CREDIT)\s*(?:NO|NUMBER|NR|#)/i, new RegExp(String.raw`\b(?:L\/C|LC|CREDIT)${REF_LABEL_TAIL}${REF_VALUE}`, "i")],
  ["lc", /^:?20:/, new RegExp(String.raw`^:?20:\s*(?:[A-Za-z ]*?)\s*${REF_VALUE}\s*$`, "i")],
];

export function readPageMarkers(page: Page): PageMarkers {
  const refs = new Map<string, string>();
  const words = new Set<string>();
  let pagination: Pagination | undefined;
  let mark: { mark: CopyMark; size: number } | undefined;
  const lines = page.lines;
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i]!;
    const text = line.text;
    const normalized = normalizeText(text);
    for (const w of normalized.split(" ")) if (w) words.add(w);
    pagination ??= readPagination(text, lines[i + 1]);
    readRefs(text, lines[i + 1], refs);
    const found = readCopyMark(normalized, line);
    if (found && (!mark || found.size > mark.size)) mark = found;
  }
  return { pagination, refs, copyMark: mark?.mark, words };
}

function readPagination(text: string, next: Line | undefined): Pagination | undefined {
  if (MT_SEQUENCE_LABEL.test(text.trimStart())) {
    const seq = MT_SEQUENCE.exec(text.trimStart()) ?? (next ? SEQUENCE_VALUE.exec(next.text) : null);
    return seq ? toPagination(seq[1], seq[2]) : undefined;
  }
  for (const pattern of PAGINATION_PATTERNS) {
    const m = pattern.exec(text);
    if (m) return toPagination(m[1], m[2]);
  }
  return undefined;
}

function toPagination(currentText: string | undefined, totalText: string | undefined): Pagination | undefined {
  const current = Number(currentText);
  const total = totalText === undefined ? undefined : Number(totalText);
  if (!Number.isInteger(current) || current < 1) return undefined;
  if (total !== undefined && (total < current || total > MAX_PAGE_TOTAL)) return undefined;
  return { current, total };
}

function readRefs(text: string, next: Line | undefined, refs: Map<string, string>): void {
  for (const [kind, label, sameLine] of REF_PATTERNS) {
    if (refs.has(kind) || !label.test(text)) continue;
    const value = sameLine.exec(text)?.[1] ?? (next && isBareLabel(text, label) ? REF_VALUE_AT_START.exec(next.text.trim())?.[1] : undefined);
    if (value) refs.set(kind, value.toUpperCase().replace(/[.\/-]+$/, ""));
  }
}

/** The label ends its line (the value sits below it in the same box). */
function isBareLabel(text: string, label: RegExp): boolean {
  const m = label.exec(text);
  if (!m) return false;
  return /^[\s.:#]*$/.test(text.slice(m.index + m[0].length).replace(/^(?:\.|BER)/i, ""));
}

function readCopyMark(normalized: string, line: Line): { mark: CopyMark; size: number } | undefined {
  const words = normalized.split(" ");
  if (words.length > MARK_MAX_WORDS) return undefined;
  const has = (w: string) => words.includes(w);
  if (has("COPY") || has("DUPLICATE") || has("TRIPLICATE") || (has("NON") && has("NEGOTIABLE"))) return { mark: "copy", size: line.fontSize };
  if (has("ORIGINAL")) return { mark: "original", size: line.fontSize };
  return undefined;
}
