/**
 * SWIFT MT700 tagged fields, in both raw form (":20:LC123" with the value
 * after the tag) and bank-printout form ("40A: Form of Documentary Credit"
 * with the value on the next, indented lines). A printout title that names a
 * field overrides its tag (some printers mislabel 44A/44E/44F).
 */
import { lineHeight, type IndexedLine } from "./doc-index";
import type { Doc } from "./document";
import { CONFIDENCE, foundOf, partOf, type Found, type Part } from "./found";

/**
 * A tag opening a line. Scans and photos read its opening colon as "1", "2", "l" or "I" (":59:" → "159:",
 * ":42C:" → "242C:"), its closing colon as ";", and add a speck after it (":39A:."); such a character before
 * an MT700 tag (20–78) and a colon is a misread colon.
 */
const TAG_LINE = /^(?::|F|[12lI|](?=[2-7]\d[A-Z]?[:;]))?(\d{2}[A-Z]?)[:;][.,]?\s*/;
const TITLE_START =
  /^(?:SEQUENCE|FORM|DOC|DATE|APPLICABLE|APPLICANT|BENEFICIARY|CURRENCY|AVAILABLE|DRAFTS?|DRAWEE|PARTIAL|TRANS|PORT|PLACE|LATEST|SHIPMENT|DESCRIPTION|DOCUMENTS|ADDITIONAL|CHARGES|PERIOD|CONFIRMATION|REIMB|INSTRUCTIONS|ADVIS|SENDER|TOLERANCE|PERCENTAGE|MAXIMUM|ISSUING|REQUESTED|SPECIAL|MIXED|DEFERRED|NUMBER|REFERENCE|PRE-ADVICE|AMOUNT)/i;
/** Separators and envelope lines of a message printout, never part of a field. */
const MESSAGE_FRAME = /-{5,}|={5,}|END OF MESSAGE|^MESSAGE (?:TEXT|TRAILER|HEADER|TYPE)\b|^SWIFT MT\s?\d|^(?:SENDER|RECEIVER|MUR|PRIORITY)\s*:/i;
/** Value lines of a printout are indented past the tag by at least this many font sizes. */
const INDENT_EM = 1;
const TITLE_TAGS: Array<[RegExp, string]> = [
  [/PORT OF LOADING|AIRPORT OF DEP/i, "44E"],
  [/PORT OF DISCHARGE|AIRPORT OF DEST/i, "44F"],
  [/PLACE OF TAKING|PLACE OF RECEIPT|PLACE OF DISPATCH/i, "44A"],
  [/FINAL DES|PLACE OF DELIVERY/i, "44B"],
  [/ADVISING BANK/i, "ADVISING"],
];

/** List item openings: "+", "1.", "1)", "(1)", "a)", "- ". Capital "A)" stays a sub-item (MT700 habit). */
const ITEM_MARKER = /^\s*(?:\+|\(?\d{1,2}[.)](?!\d)|\(?[a-z]\)|-\s)/;

export interface TagField {
  tag: string;
  title?: string;
  /** Value lines in order (page headers and footers left out). */
  parts: Part[];
}

function isTitle(rest: string): boolean {
  return TITLE_START.test(rest) && (/[a-z]/.test(rest) || !/\d/.test(rest));
}

/** MT701 continues an MT700 with the same fields under B letters. */
const MT701_TAGS: Readonly<Record<string, string>> = { "45B": "45A", "46B": "46A", "47B": "47A" };

const CONTINUED_TAGS = new Set(["45A", "46A", "47A"]);

function semanticTag(tag: string, title: string | undefined): string {
  if (!title) return MT701_TAGS[tag] ?? tag;
  return TITLE_TAGS.find(([pattern]) => pattern.test(title))?.[1] ?? MT701_TAGS[tag] ?? tag;
}

/** The tagged fields of the document, first occurrence per (semantic) tag. */
export function parseTags(doc: Doc): Map<string, TagField> {
  const fields = new Map<string, TagField>();
  let current: { field: TagField; tagLine: IndexedLine; printout: boolean; titleOpen: boolean } | undefined;
  const consumed = new Set<number>();
  const close = () => {
    const existing = current && fields.get(current.field.tag);
    if (current && !existing) fields.set(current.field.tag, current.field);
    // An MT701 goes on with the goods, documents and conditions of its MT700.
    else if (current && existing && CONTINUED_TAGS.has(current.field.tag)) existing.parts.push(...current.field.parts);
    current = undefined;
  };
  for (const line of doc.lines) {
    if (line.repeated) continue;
    const m = TAG_LINE.exec(line.text);
    if (m) {
      close();
      const rowRest = doc.rows[line.row]!.map((id) => doc.lines[id]!).filter((l) => l.x0 > line.x0);
      for (const l of rowRest) consumed.add(l.id);
      const rest = [line.text.slice(m[0].length), ...rowRest.map((l) => l.text)].join(" ").trim();
      const printout = rest === "" || isTitle(rest);
      const parts = printout ? [] : [partOf(line, m[0].length), ...rowRest.map((l) => partOf(l))];
      const title = printout && rest ? rest : undefined;
      current = { field: { tag: semanticTag(m[1]!, title), title, parts }, tagLine: line, printout, titleOpen: Boolean(title) };
      continue;
    }
    if (!current || line.x0 < current.tagLine.x0 - INDENT_EM * lineHeight(line)) {
      if (current && line.x0 < current.tagLine.x0 - INDENT_EM * lineHeight(line)) close();
      continue;
    }
    if (consumed.has(line.id)) continue;
    const indented = line.x0 >= current.tagLine.x0 + INDENT_EM * lineHeight(line);
    if (current.printout && !indented) {
      if (current.titleOpen && current.field.parts.length === 0) {
        current.field.title = `${current.field.title ?? ""} ${line.text}`.trim();
        current.field.tag = semanticTag(current.field.tag, current.field.title);
        continue;
      }
      close();
      continue;
    }
    if (!current.printout && MESSAGE_FRAME.test(line.text)) {
      close();
      continue;
    }
    current.field.parts.push(partOf(line));
  }
  close();
  return fields;
}

/** A field's value as one Found (lines joined by `separator`). */
export function tagValue(field: TagField | undefined, separator = " "): Found | undefined {
  if (!field || field.parts.length === 0) return undefined;
  const found = foundOf(field.parts, CONFIDENCE.tag, separator);
  return found.text.trim() ? found : undefined;
}

/** Splits a list field (46A, 47A) into items at "+", "1.", "1)", "(1)" line openings. */
export function splitItems(field: TagField | undefined): Found[] {
  if (!field) return [];
  const items: Part[][] = [];
  const marker = ITEM_MARKER;
  for (const part of field.parts) {
    const text = part.line.text.slice(part.start, part.end);
    if (marker.test(text) || items.length === 0) items.push([part]);
    else items[items.length - 1]!.push(part);
  }
  return items.map((parts) => foundOf(parts, CONFIDENCE.tag));
}

/** Removes a list marker from an item's text. */
export function stripMarker(text: string): string {
  return text.replace(ITEM_MARKER, "").trimStart();
}
