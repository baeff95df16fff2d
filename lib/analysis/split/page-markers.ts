import type { Line, Page } from "../types";
import { pad, preparePhrase, type Phrase } from "../classify/normalize-text";

/**
 * What a page says about where its document starts and ends: its page counter,
 * the reference numbers it prints, and whether it is marked original or copy.
 */
interface Pagination {
  current: number;
  total?: number;
}

type CopyMark = "original" | "copy";

export interface PageMarkers {
  pagination?: Pagination;
  /** A SWIFT message's ":27: Sequence of Total": which message of a multi-message credit (MT700 + MT701s). */
  sequence?: Pagination;
  /** The page opens a SWIFT message: its header block or ":27:" sequence 1. */
  messageStart: boolean;
  /** The page closes a SWIFT message: its trailer ("Message Trailer", "{5:", "CHK:"). */
  messageEnd: boolean;
  /** First value seen per kind of reference: invoice, bl, certificate, lc, contract. */
  refs: Map<string, string>;
  copyMark?: CopyMark;
  /** The page says it continues the previous one ("continued", "attached sheet", "rider"). */
  continuesPrevious: boolean;
  /** The page says the next page continues it ("continued on next page"). */
  continuesOnNext: boolean;
  /** The page carries a signature block: its document ends here unless told otherwise. */
  closes: boolean;
  /** Words (3+ letters) of the most prominent line at the head of the page: usually the issuer's name. */
  letterhead?: Set<string>;
  /** The font size of that line, to tell a heading in display type from a first line in body type. */
  letterheadSize?: number;
  /** Distinct normalised words, to tell a repeated page (an original's copy) from a continuation. */
  words: ReadonlySet<string>;
}

/** A printed SWIFT message opens with a header block and ends with a trailer. */
const MESSAGE_HEADER = /\bMESSAGE HEADER\b|\bSWIFT (?:INPUT|OUTPUT)\b|^\s*\{[12]:[FOI]\d/i;
const MESSAGE_TRAILER = /\bMESSAGE TRAILER\b|\bEND OF MESSAGE\b|^\s*\{5:|^\s*\{?CHK:/i;

/** Words near the top of a page that make it a continuation of the page before. */
const CONTINUATION_PHRASES = [
  "CONTINUED",
  "CONTINUATION",
  "CONTINUATION SHEET",
  "ATTACHED SHEET",
  "RIDER",
  "CONT D",
  "ATTACHMENT TO",
  "ADDENDUM",
  // A consul's or chamber's legalisation, or an endorsement, is written on the document it certifies.
  "LEGALISATION",
  "LEGALIZATION",
  "ATTESTATION",
  "ENDORSEMENT",
  // The terms printed on a document's reverse side belong to it.
  "TERMS AND CONDITIONS",
  "CONDITIONS OF CARRIAGE",
  "TERMS OF CARRIAGE",
  "REVERSE SIDE",
];
/** The top share of the page where a continuation heading sits. */
const CONTINUATION_REGION = 0.25;
const CONTINUES_ON_NEXT_PHRASES = ["CONTINUED ON NEXT PAGE", "CONTINUED OVERLEAF", "TO BE CONTINUED", "CONTINUED ON PAGE", "SEE NEXT PAGE", "CONTINUED ON ATTACHED"];
/** The issuer's letterhead is printed in this top share of the page. */
const LETTERHEAD_REGION = 0.12;
/** Shorter words ("CO", "LTD" aside) say little about who issued a page. */
const LETTERHEAD_MIN_WORD = 3;
/** Signature blocks sit in the lower part of the page, below this share of its height. */
const CLOSING_REGION = 0.4;
/** Signature blocks that close a document. */
const CLOSING_PHRASES = [
  "FOR AND ON BEHALF OF",
  "AUTHORIZED SIGNATORY",
  "AUTHORISED SIGNATORY",
  "AUTHORIZED SIGNATURE",
  "AUTHORISED SIGNATURE",
  "SIGNATURE AND STAMP",
  "STAMP AND SIGNATURE",
  "SIGNED FOR AND ON BEHALF",
  "AS AGENT FOR THE CARRIER",
  "AS AGENTS FOR THE CARRIER",
];
/** Totals above this are not page counts (they are quantities or dates). */
const MAX_PAGE_TOTAL = 99;
/** A copy mark is a stamp or a heading: a line of at most this many words. */
const MARK_MAX_WORDS = 4;
/** A reference value: letters, digits and separators with at least one digit. */
const REF_VALUE = String.raw`([A-Z0-9][A-Z0-9\-\/.]*\d[A-Z0-9\-\/.]*)`;
/** A reference value opening a line (the value printed below its label). */
const REF_VALUE_AT_START = new RegExp(`^${REF_VALUE}`, "i");
const REF_LABEL_TAIL = String.raw`\s*(?:NO\.?|NUMBER|NR\.?|#)\s*[:.]?\s*`;

/** "Page 2 of 3", "Sheet 2/3", "Page: 2": explicit wherever they are printed. */
const PAGINATION_PATTERNS: readonly RegExp[] = [
  /\b(?:PAGE|PG|SHEET)\.?\s*(\d{1,2})\s*(?:OF|\/)\s*(\d{1,2})\b/i,
  /^\s*(?:PAGE|SHEET)\s*(?:NO\.?)?\s*[:.]?\s*(\d{1,2})\s*$/i,
];
/** A "Page:" label whose counter is printed on the next line. */
const PAGE_LABEL = /^\s*(?:PAGE|SHEET)\s*(?:NO\.?)?\s*[:.]?\s*$/i;
/** A bare "2/3" or "- 2 -" line counts only in the top or bottom margin, where page numbers are printed. */
const BARE_PAGINATION = /^\s*[-–(]?\s*([1-9]\d?)\s*(?:\/|OF)\s*([1-9]\d?)\s*[-–)]?\s*$/i;
/** Share of the page height at its top and bottom where a bare counter may sit. */
const MARGIN_SHARE = 0.12;

/** A SWIFT message's ":27:" sequence: a counter that restarts with each message. */
const MT_SEQUENCE = /^:?F?27:\s*(?:[A-Za-z ]*?)?\s*(\d{1,2})\s*\/\s*(\d{1,2})\b/;
const MT_SEQUENCE_LABEL = /^:?F?27:/;
const SEQUENCE_VALUE = /^\s*(\d{1,2})\s*\/\s*(\d{1,2})\s*$/;

const REF_PATTERNS: ReadonlyArray<readonly [kind: string, label: RegExp, sameLine: RegExp]> = [
  ["invoice", /\bINVOICE\s*(?:NO|NUMBER|NR|#)/i, new RegExp(String.raw`\bINVOICE${REF_LABEL_TAIL}${REF_VALUE}`, "i")],
  ["bl", /\b(?:B\/L|BILL OF LADING|BL)\s*(?:NO|NUMBER|NR|#)/i, new RegExp(String.raw`\b(?:B\/L|BILL OF LADING|BL)${REF_LABEL_TAIL}${REF_VALUE}`, "i")],
  ["certificate", /\bCERTIFICATE\s*(?:NO|NUMBER|NR|#)/i, new RegExp(String.raw`\bCERTIFICATE${REF_LABEL_TAIL}${REF_VALUE}`, "i")],
  ["packing", /\b(?:PACKING LIST|P\/L)\s*(?:NO|NUMBER|NR|#)/i, new RegExp(String.raw`\b(?:PACKING LIST|P\/L)${REF_LABEL_TAIL}${REF_VALUE}`, "i")],
  ["contract", /\bCONTRACT\s*(?:NO|NUMBER|NR|#)/i, new RegExp(String.raw`\bCONTRACT${REF_LABEL_TAIL}${REF_VALUE}`, "i")],
  ["lc", /\b(?:L\/C|LC|CREDIT)\s*(?:NO|NUMBER|NR|#)/i, new RegExp(String.raw`\b(?:L\/C|LC|CREDIT)${REF_LABEL_TAIL}${REF_VALUE}`, "i")],
  ["lc", /^:?F?20:/, new RegExp(String.raw`^:?F?20:\s*(?:[A-Za-z ]*?)\s*${REF_VALUE}\s*$`, "i")],
];

const CONTINUATION = CONTINUATION_PHRASES.map(preparePhrase);
const CONTINUES_ON_NEXT = CONTINUES_ON_NEXT_PHRASES.map(preparePhrase);
const CLOSING = CLOSING_PHRASES.map(preparePhrase);

/** The phrases whose every word the page carries: the only ones its lines can hold. */
function possiblePhrases(phrases: readonly Phrase[], words: ReadonlySet<string>): Phrase[] {
  return phrases.filter((p) => words.has(p.key) && p.others.every((w) => words.has(w)));
}

function lineHas(padded: string, phrases: readonly Phrase[]): boolean {
  return phrases.some((p) => padded.includes(p.padded));
}

/** The distinct words of normalised lines. */
function wordsOf(normalizedLines: readonly string[]): Set<string> {
  const words = new Set<string>();
  for (const normalized of normalizedLines) for (const w of normalized.split(" ")) if (w) words.add(w);
  return words;
}

/**
 * Reads the markers of a page whose lines are already normalised (one entry per
 * line); `words`, the distinct words of those lines, when the caller has them.
 */
export function readPageMarkers(page: Page, normalizedLines: readonly string[], words: ReadonlySet<string> = wordsOf(normalizedLines)): PageMarkers {
  const refs = new Map<string, string>();
  const continuation = possiblePhrases(CONTINUATION, words);
  const continuesOnNextPhrases = possiblePhrases(CONTINUES_ON_NEXT, words);
  const closing = possiblePhrases(CLOSING, words);
  let pagination: Pagination | undefined;
  let bare: Pagination | undefined;
  let sequence: Pagination | undefined;
  let mark: { mark: CopyMark; size: number } | undefined;
  let continuesPrevious = false;
  let continuesOnNext = false;
  let closes = false;
  let messageHeader = false;
  let messageEnd = false;
  let head: { line: Line; normalized: string } | undefined;
  const lines = page.lines;
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i]!;
    const text = line.text;
    const normalized = normalizedLines[i] ?? "";
    sequence ??= readSequence(text, lines[i + 1]);
    pagination ??= readPagination(text, lines[i + 1]);
    bare ??= inMargin(line, page) ? readBarePagination(text) : undefined;
    readRefs(text, lines[i + 1], refs);
    messageHeader ||= MESSAGE_HEADER.test(text);
    messageEnd ||= MESSAGE_TRAILER.test(text);
    const padded = pad(normalized);
    if (!continuesPrevious && continuation.length > 0 && line.y < CONTINUATION_REGION * page.height) {
      continuesPrevious = lineHas(padded, continuation) && !lineHas(padded, continuesOnNextPhrases);
    }
    if (!continuesOnNext) continuesOnNext = lineHas(padded, continuesOnNextPhrases);
    if (!closes && line.y >= CLOSING_REGION * page.height) closes = lineHas(padded, closing);
    const found = readCopyMark(normalized, line);
    if (found && (!mark || found.size > mark.size)) mark = found;
    else if (!found && line.y < LETTERHEAD_REGION * page.height && (!head || line.fontSize > head.line.fontSize)) head = { line, normalized };
  }
  const letterhead = head && new Set(head.normalized.split(" ").filter((w) => w.length >= LETTERHEAD_MIN_WORD && !/\d/.test(w)));
  return {
    pagination: pagination ?? bare,
    sequence,
    messageStart: messageHeader || sequence?.current === 1,
    messageEnd,
    refs,
    copyMark: mark?.mark,
    continuesPrevious,
    continuesOnNext,
    closes,
    letterhead: letterhead && letterhead.size > 0 ? letterhead : undefined,
    letterheadSize: letterhead && letterhead.size > 0 ? head!.line.fontSize : undefined,
    words,
  };
}

function readSequence(text: string, next: Line | undefined): Pagination | undefined {
  const trimmed = text.trimStart();
  if (!MT_SEQUENCE_LABEL.test(trimmed)) return undefined;
  const seq = MT_SEQUENCE.exec(trimmed) ?? (next ? SEQUENCE_VALUE.exec(next.text) : null);
  return seq ? toPagination(seq[1], seq[2]) : undefined;
}

/** Every pagination pattern and the page label name a page or sheet: lines without these words are not looked at further. */
const PAGINATION_HINT = /PAGE|PG|SHEET/i;

function readPagination(text: string, next: Line | undefined): Pagination | undefined {
  if (!PAGINATION_HINT.test(text)) return undefined;
  for (const pattern of PAGINATION_PATTERNS) {
    const m = pattern.exec(text);
    if (m) return toPagination(m[1], m[2]);
  }
  if (next && PAGE_LABEL.test(text)) return readBarePagination(next.text);
  return undefined;
}

function inMargin(line: Line, page: Page): boolean {
  if (page.height <= 0) return false;
  return line.y < MARGIN_SHARE * page.height || line.y + line.height > (1 - MARGIN_SHARE) * page.height;
}

function readBarePagination(text: string): Pagination | undefined {
  const m = BARE_PAGINATION.exec(text);
  return m ? toPagination(m[1], m[2]) : undefined;
}

function toPagination(currentText: string | undefined, totalText: string | undefined): Pagination | undefined {
  const current = Number(currentText);
  const total = totalText === undefined ? undefined : Number(totalText);
  if (!Number.isInteger(current) || current < 1) return undefined;
  if (total !== undefined && (total < current || total > MAX_PAGE_TOTAL)) return undefined;
  return { current, total };
}

/** Any of REF_PATTERNS' labels: one test rules out the lines that name no reference. */
const REF_HINT = new RegExp(REF_PATTERNS.map(([, label]) => `(?:${label.source})`).join("|"), "i");

function readRefs(text: string, next: Line | undefined, refs: Map<string, string>): void {
  if (!REF_HINT.test(text)) return;
  for (const [kind, label, sameLine] of REF_PATTERNS) {
    if (refs.has(kind) || !label.test(text)) continue;
    const value = sameLine.exec(text)?.[1] ?? (next && isBareLabel(text, label) ? REF_VALUE_AT_START.exec(next.text.trim())?.[1] : undefined);
    if (value) refs.set(kind, canonicalRef(value));
  }
}

/** OCR confuses these; references are compared with them folded so a misread is no new document. */
const CONFUSABLE: Readonly<Record<string, string>> = { O: "0", Q: "0", D: "0", I: "1", L: "1", S: "5", B: "8", Z: "2", G: "6" };

/** A reference reduced to what survives OCR: letters and digits only, look-alikes folded. */
function canonicalRef(value: string): string {
  return value.toUpperCase().replace(/[^A-Z0-9]/g, "").replace(/[OQDILSBZG]/g, (c) => CONFUSABLE[c] ?? c);
}

/** The label ends its line (the value sits below it in the same box). */
function isBareLabel(text: string, label: RegExp): boolean {
  const m = label.exec(text);
  if (!m) return false;
  return /^[\s.:#]*$/.test(text.slice(m.index + m[0].length).replace(/^(?:\.|BER)/i, ""));
}

/** Every copy or original mark contains one of these. */
const MARK_HINT = /COPY|DUPLICATE|TRIPLICATE|NEGOTIABLE|ORIGINAL/;

function readCopyMark(normalized: string, line: Line): { mark: CopyMark; size: number } | undefined {
  if (!MARK_HINT.test(normalized)) return undefined;
  const words = normalized.split(" ");
  if (words.length > MARK_MAX_WORDS) return undefined;
  const has = (w: string) => words.includes(w);
  if (has("COPY") || has("DUPLICATE") || has("TRIPLICATE") || (has("NON") && has("NEGOTIABLE"))) return { mark: "copy", size: line.fontSize };
  if (has("ORIGINAL")) return { mark: "original", size: line.fontSize };
  return undefined;
}
