import { typeOfClass, type PageClass } from "../classify/cues";
import { bestClass, type ClassScores } from "../classify/score-page";
import { advanceMessage, continuesCredit, type MessageState } from "./credit";
import type { PageInput } from "./page-input";
import type { PageMarkers } from "./page-markers";

export type { PageInput } from "./page-input";

/**
 * Walks the pages in order and decides, page by page, whether it continues the
 * current document or starts a new one, and of which class. Evidence, strongest
 * first: a page counter that follows on; a boundary (counter restarting, a
 * different reference number, an original followed by its copy, a repeated first
 * page); the page's own title; and, for pages that say little, the document
 * they sit in (continuation sheets, riders, reverse sides of terms).
 */

/** Below this best score a page says too little to start a document of its own. */
const WEAK_SCORE = 5;
/** An untitled page stays in its document while it scores at least this share of the best class for that document's class. */
const INHERIT_SHARE = 0.5;
/** A page that reads as one of Other's kinds by at least this much (one phrase only that kind prints) is a document of its own, unless it reads at all as the open document. */
const OWN_KIND_SCORE = 3;
/**
 * Certificates are one-sheet forms (a reverse side at most): a second face with the
 * same title is the next certificate (another lot, another copy), unless its counter
 * or a continuation note says otherwise.
 */
const ONE_FACE_CLASSES: ReadonlySet<PageClass> = new Set<PageClass>([
  "certificate_of_origin",
  "certificate_of_weight",
  "certificate_of_quality",
  "phytosanitary_certificate",
  "fumigation_certificate",
  "insurance",
  "beneficiary_certificate",
  "vessel_certificate",
  "draft",
]);
/** A head line this many times the page's median font size is a heading in display type, not a first line of body text. */
const HEADING_FONT_RATIO = 1.2;
/** Title pages sharing this share of their words are the same page printed twice (an original and its copy). */
const REPEAT_SIMILARITY = 0.85;
/** A page of fewer distinct words (a separator sheet, a blank reverse) says too little to be told apart from its neighbour. */
const MIN_REPEAT_WORDS = 20;


export interface Segment {
  cls: PageClass;
  /** 0-based indexes into the page list, ascending. */
  pages: number[];
}

interface OpenDocument extends Segment {
  first: PageInput;
  last: PageInput;
  refs: Map<string, string>;
  message: MessageState;
  /** A page of the document carries a signature block. */
  signed: boolean;
  /** Every page's class scores summed: what the pages together read as. */
  pooled: ClassScores;
}

function pool(into: ClassScores, scores: ClassScores): ClassScores {
  for (const [cls, score] of scores) into.set(cls, (into.get(cls) ?? 0) + score);
  return into;
}

/**
 * A document's class: its first page's, when that page carries a title (a
 * title names the document); else what its pages read as together, so that an
 * untitled first page (a letterhead-only invoice) takes its class from the
 * totals and terms of the pages after it.
 */
function classOf(open: OpenDocument): PageClass {
  if (open.first.features.title || open.pages.length < 2 || isBlankRun(open)) return open.cls;
  const best = bestClass(open.pooled, open.cls);
  return best.score > 0 ? best.cls : open.cls;
}

export function splitPages(inputs: PageInput[]): Segment[] {
  const segments: Segment[] = [];
  let open: OpenDocument | undefined;
  const close = () => {
    if (open) segments.push({ cls: classOf(open), pages: open.pages });
    open = undefined;
  };
  inputs.forEach((input, index) => {
    if (input.features.wordCount === 0) {
      // A blank sheet says nothing of any document: a run of them is one Other.
      if (open && isBlankRun(open)) {
        open.pages.push(index);
        return;
      }
      close();
      open = { cls: "separator", pages: [index], first: input, last: input, refs: new Map(), message: "none", signed: false, pooled: new Map() };
      return;
    }
    const best = bestClass(input.scores, open?.cls);
    if (open && !isBlankRun(open) && continuesDocument(open, input, best)) {
      open.pages.push(index);
      open.last = input;
      open.message = advanceMessage(open.message, input);
      open.signed ||= input.markers.closes;
      pool(open.pooled, input.scores);
      for (const [kind, value] of input.markers.refs) if (!open.refs.has(kind)) open.refs.set(kind, value);
      return;
    }
    close();
    const cls = best.score > 0 ? best.cls : "separator";
    open = {
      cls, pages: [index], first: input, last: input, refs: new Map(input.markers.refs), message: advanceMessage("none", input),
      signed: input.markers.closes, pooled: pool(new Map(), input.scores),
    };
  });
  close();
  return segments;
}

function isBlankRun(open: OpenDocument): boolean {
  return open.first.features.wordCount === 0;
}

function continuesDocument(open: OpenDocument, input: PageInput, best: { cls: PageClass; score: number }): boolean {
  if (open.cls === "letter_of_credit") {
    const credit = continuesCredit(open, input, best.cls);
    if (credit !== undefined) return credit;
  }
  if (input.markers.sequence) return false;
  const startsFresh = input.features.title !== undefined || (best.score > 0 && best.cls !== open.cls);
  const follows = followsCounter(open.last.markers, input.markers, startsFresh);
  if (follows !== undefined) return follows;
  const title = input.features.title;
  const saysContinued = input.markers.continuesPrevious || open.last.markers.continuesOnNext;
  if (saysContinued && (!title || title.cls === open.cls)) return true;
  if (startsAnother(open, input)) return false;
  if (!title && startsUnfamiliar(open, input)) return false;
  if (best.cls === open.cls) return true;
  if (title || (best.cls === "separator" && best.score > 0)) return false;
  if (isOwnKind(best) && (input.scores.get(open.cls) ?? 0) === 0) return false;
  return best.score < WEAK_SCORE || (input.scores.get(open.cls) ?? 0) >= INHERIT_SHARE * best.score;
}

/** true: the counter follows on; false: it restarts or jumps back; undefined: no counters to compare. */
function followsCounter(prev: PageMarkers, next: PageMarkers, startsFresh: boolean): boolean | undefined {
  const a = prev.pagination;
  const b = next.pagination;
  if (!b) return undefined;
  // A counter restarting after a counted page, or on a page that looks like a new
  // document (titled, or of another class), starts one; "1/2" on a page that reads
  // like the uncounted pages before it says nothing by itself.
  if (b.current === 1) return a || startsFresh ? false : undefined;
  if (!a) return undefined;
  if (a.total !== undefined && b.total !== undefined && a.total !== b.total) return false;
  if (b.current === a.current + 1) return true;
  // A jump back is a new document; the same counter twice (a page printed twice) or a gap says nothing.
  return b.current < a.current ? false : undefined;
}

function startsAnother(open: OpenDocument, input: PageInput): boolean {
  for (const [kind, value] of input.markers.refs) {
    const known = open.refs.get(kind);
    if (known !== undefined && known !== value) return true;
  }
  // An original followed by its copy (or the reverse): the marks differ.
  const firstMark = open.first.markers.copyMark;
  const mark = input.markers.copyMark;
  if (firstMark && mark && firstMark !== mark) return true;
  // The same page printed twice, titled or not: an original and its copy whose marks a scan lost (a stamp in the scanner's edge shadow).
  if (open.first.markers.words.size >= MIN_REPEAT_WORDS && similarity(open.first.markers.words, input.markers.words) >= REPEAT_SIMILARITY) return true;
  const title = input.features.title;
  const firstTitle = open.first.features.title;
  if (!title || !firstTitle) return false;
  if (title.exact && firstTitle.exact && title.cls === firstTitle.cls && title.phrase !== firstTitle.phrase) return true;
  // A document that was signed off is complete: a new title page starts another one.
  if (open.signed && title.cls === firstTitle.cls) return true;
  if (ONE_FACE_CLASSES.has(open.cls) && title.cls === open.cls && firstTitle.cls === open.cls) return true;
  // Two title pages under letterheads with no word in common come from two issuers.
  if (differentIssuers(open.first.markers.letterhead, input.markers.letterhead)) return true;
  return false;
}

/**
 * A document that was signed off is complete: a page after it headed by a line
 * in display type that its first page does not carry starts another document,
 * though no title we know names it (a bank's notification, a carrier's notice).
 */
function startsUnfamiliar(open: OpenDocument, input: PageInput): boolean {
  const { letterhead, letterheadSize } = input.markers;
  if (!open.signed || !letterhead || !letterheadSize || letterheadSize < HEADING_FONT_RATIO * input.features.medianFontSize) return false;
  const first = open.first.markers.letterhead;
  return !first || first.size !== letterhead.size || [...letterhead].some((w) => !first.has(w));
}

/** Insurance, drafts, courier receipts…: kinds whose own vocabulary makes a page one of them even without a title. */
function isOwnKind(best: { cls: PageClass; score: number }): boolean {
  return best.score >= OWN_KIND_SCORE && typeOfClass(best.cls) === "other" && best.cls !== "separator" && best.cls !== "correspondence";
}

function differentIssuers(a: Set<string> | undefined, b: Set<string> | undefined): boolean {
  if (!a || !b) return false;
  for (const w of a) if (b.has(w)) return false;
  return true;
}

/** Jaccard similarity of two word sets. */
function similarity(a: ReadonlySet<string>, b: ReadonlySet<string>): number {
  if (a.size === 0 || b.size === 0) return 0;
  const [small, large] = a.size <= b.size ? [a, b] : [b, a];
  let shared = 0;
  for (const w of small) if (large.has(w)) shared++;
  return shared / (a.size + b.size - shared);
}
