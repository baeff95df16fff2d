/**
 * The credit as amended: the issuing message (MT700 and its MT701s) with
 * every MT707 applied in order. An MT707 states changes, not terms: :32B: and
 * :33B: increase and decrease the amount, :34B: states the new amount,
 * :31E: (or :31D: since SWIFT's 2018 release) the new expiry, :39A:, :44C:,
 * :44D:, :44E:, :44F:, :43P:, :43T: and :48: replace the term, and :45B:,
 * :46B:, :47B: ADD, DELETE or replace all (REPALL) lines of the goods,
 * documents and conditions. Its extracted fields are therefore not merged as
 * they are: the increase would become the amount.
 *
 * An amendment becomes part of the credit only when the beneficiary accepts
 * it (UCP 600 art. 10(b)); presenting documents that comply with it is that
 * acceptance (art. 10(c)), so a presentation that includes it is examined
 * against the amended terms.
 */
import { parseAmount } from "../normalize/amount";
import { normalizeCurrency } from "../normalize/currency";
import { DEFAULT_DATE_CONTEXT, findDates } from "../normalize/date";
import { normalizePort } from "../normalize/port";
import { normalizePermission } from "../normalize/terms";
import { readDate, readNumber, readText, type Fields } from "./fields";
import { isAmendmentText, readSwiftTags, shipmentPeriodText, tagText, type TagValue } from "./swift-text";

/** The part of a presented document this module needs (presentation.ts's Doc satisfies it). */
export interface CreditDoc {
  id: string;
  fields: Fields;
  text?: string;
}

export interface Amendment<D extends CreditDoc = CreditDoc> {
  doc: D;
  /** :26E: number of amendment. */
  number?: number;
  /** :30: date of amendment, else the document's date. */
  date?: string;
  /** "amendment no. 2 of 2026-03-25 (amendment.pdf#1)", for findings. */
  label: string;
  /** Changes that could not be applied, in words (reported as notes). */
  unapplied: string[];
  /** The terms this amendment set, as they stood after it (the matrix shows these in its column). */
  changes: Fields;
}

export interface AmendedCredit<D extends CreditDoc = CreditDoc> {
  fields: Fields;
  amendments: Amendment<D>[];
  /** The :44D: text in force, and the amendment that set it. */
  shipmentPeriod?: { text: string; origin?: Amendment<D> };
  /** Field key, or `itemKey(field, line)` for a line of a list, → the amendment that set it. */
  origins: Map<string, Amendment<D>>;
}

/** Keys an amendment's own extraction may carry that are not terms of the credit. */
const NOT_TERMS = new Set(["lc_number", "date_of_issue", "__proto__", "constructor", "prototype"]);
/** Without its text, an amendment's amount may be an increase, a decrease or the new amount: not applied. */
const AMBIGUOUS_WITHOUT_TEXT = new Set(["amount", "currency"]);
const LIST_KEYS: Record<string, string> = { "46B": "documents_required", "47B": "additional_conditions" };
/** "/ADD/", "/DELETE/", "/REPALL/"; the extraction may have dropped the opening slash of a line ("ADD/+…"). */
const CODE = /(?:\/|^|(?<=\s))(ADD|DELETE|REPALL)\//gm;
export const HAS_CODE = /(?:\/|^|(?<=\s))(?:ADD|DELETE|REPALL)\//m;
/** Item openings inside a list field: "+", "1.", "1)". */
const ITEM_START = /(?:^|\s)(?:\+|\d{1,2}[.)](?=\s))\s*(?=[A-Z0-9(])/gi;
/** Share of a deleted line's words a credit line must carry to be the line deleted. */
const DELETE_MATCH_SHARE = 0.8;
/** Share of the credit line's words the DELETE must quote (OCR and re-typing change a word or two, not half). */
const DELETE_MIN_COVERAGE = 0.6;

/** Words of a line, for matching lines across messages: markers, punctuation and case left out. */
function lineWords(text: string): string {
  return text
    .toUpperCase()
    .replace(/^\s*(?:\+|\d{1,2}[.)])\s*/, "")
    .replace(/[^A-Z0-9]+/g, " ")
    .trim();
}

export function itemKey(field: string, line: string): string {
  return `${field}\u0000${lineWords(line)}`;
}

function setTerm<D extends CreditDoc>(credit: AmendedCredit<D>, key: string, value: unknown, origin: Amendment<D>): void {
  if (NOT_TERMS.has(key)) return;
  credit.fields[key] = value;
  credit.origins.set(key, origin);
  origin.changes[key] = value;
}

function splitLines(body: string): string[] {
  return body
    .split(ITEM_START)
    .map((s) => s.replace(/\s+/g, " ").trim())
    .filter((s) => s.length > 2);
}

/**
 * The credit line a DELETE names: the same words, else the line that holds
 * (nearly) all the deleted words and is not much longer than them — a DELETE
 * of "PACKING LIST" alone must not take whichever packing-list line comes first.
 */
function findLine(lines: string[], deleted: string): number {
  const target = lineWords(deleted);
  const exact = lines.findIndex((l) => lineWords(l) === target);
  if (exact >= 0) return exact;
  const words = new Set(target.split(" "));
  let best = -1;
  let bestShare = 0;
  lines.forEach((line, i) => {
    const own = new Set(lineWords(line).split(" "));
    const share = [...words].filter((w) => own.has(w)).length / Math.max(words.size, 1);
    const coverage = [...own].filter((w) => words.has(w)).length / Math.max(own.size, 1);
    if (coverage >= DELETE_MIN_COVERAGE && share > bestShare) [best, bestShare] = [i, share];
  });
  return bestShare >= DELETE_MATCH_SHARE ? best : -1;
}

/** Segments of an amended field by code; a field without a code adds its lines. */
function segmentsOf(text: string): { code: "ADD" | "DELETE" | "REPALL"; body: string }[] {
  const marks = [...text.matchAll(CODE)];
  if (!marks.length) return [{ code: "ADD", body: text }];
  return marks.map((m, i) => ({
    code: m[1] as "ADD" | "DELETE" | "REPALL",
    body: text.slice(m.index! + m[0].length, marks[i + 1]?.index ?? text.length),
  }));
}

function changeList<D extends CreditDoc>(credit: AmendedCredit<D>, key: string, tag: string, text: string, a: Amendment<D>): void {
  let lines = [...((credit.fields[key] as unknown[] | undefined) ?? [])].filter((l): l is string => typeof l === "string");
  for (const { code, body } of segmentsOf(text)) {
    const items = splitLines(body);
    if (code === "REPALL") lines = [];
    if (code === "DELETE") {
      for (const item of items) {
        const at = findLine(lines, item);
        if (at < 0) a.unapplied.push(`:${tag}: DELETE of "${item.slice(0, 60)}" matches no line of the credit`);
        else lines.splice(at, 1);
      }
      continue;
    }
    for (const item of items) {
      lines.push(item);
      credit.origins.set(itemKey(key, item), a);
    }
  }
  credit.fields[key] = lines;
  credit.origins.set(key, a);
  a.changes[key] = lines;
}

function changeGoods<D extends CreditDoc>(credit: AmendedCredit<D>, text: string, a: Amendment<D>): void {
  let goods = readText(credit.fields, "description_of_goods") ?? "";
  for (const { code, body } of segmentsOf(text)) {
    const clean = body.replace(/\s+/g, " ").trim();
    if (code === "REPALL") goods = clean;
    else if (code === "ADD") goods = `${goods} ${clean}`.trim();
    else if (goods.toUpperCase().includes(clean.toUpperCase())) {
      const at = goods.toUpperCase().indexOf(clean.toUpperCase());
      goods = `${goods.slice(0, at)} ${goods.slice(at + clean.length)}`.replace(/\s+/g, " ").trim();
    } else a.unapplied.push(`:45B: DELETE of "${clean.slice(0, 60)}" matches no words of the goods description`);
  }
  setTerm(credit, "description_of_goods", goods, a);
}

function dateIn(text: string | undefined): { iso: string; rest: string } | undefined {
  if (!text) return undefined;
  const date = findDates(text, DEFAULT_DATE_CONTEXT, { compact: true })[0];
  return date ? { iso: date.iso, rest: text.slice(date.index + date.length).trim() } : undefined;
}

function money(text: string | undefined): { currency?: string; value: number } | undefined {
  if (!text) return undefined;
  // SWIFT writes amounts with a decimal comma and no grouping: "USD10000,00".
  const swift = /^\s*([A-Z]{3})\s*(\d+),(\d{0,2})\s*$/.exec(text);
  const value = swift ? Number(`${swift[2]}.${swift[3] || "0"}`) : parseAmount(text.replace(/^.*?AMOUNT\s*:?/i, ""));
  if (value === undefined || !Number.isFinite(value)) return undefined;
  return { currency: swift?.[1] ?? normalizeCurrency(text), value };
}

function changeAmount<D extends CreditDoc>(credit: AmendedCredit<D>, tags: TagValue[], a: Amendment<D>): void {
  const stated = money(tagText(tags, "34B"));
  const increase = money(tagText(tags, "32B"));
  const decrease = money(tagText(tags, "33B"));
  const current = readNumber(credit.fields, "amount");
  const currency = readText(credit.fields, "currency");
  for (const change of [stated, increase, decrease]) {
    if (change?.currency && currency && change.currency !== currency) {
      a.unapplied.push(`amount change in ${change.currency} on a credit in ${currency}`);
      return;
    }
  }
  if (stated) return setTerm(credit, "amount", stated.value, a);
  if (!increase && !decrease) return;
  if (current === undefined) {
    a.unapplied.push("amount increase or decrease on a credit whose amount was not read");
    return;
  }
  setTerm(credit, "amount", Math.round((current + (increase?.value ?? 0) - (decrease?.value ?? 0)) * 100) / 100, a);
}

function applyTags<D extends CreditDoc>(credit: AmendedCredit<D>, tags: TagValue[], a: Amendment<D>): void {
  changeAmount(credit, tags, a);
  const expiry = dateIn(tagText(tags, "31E")) ?? dateIn(tagText(tags, "31D"));
  if (expiry) {
    setTerm(credit, "expiry_date", expiry.iso, a);
    if (expiry.rest) setTerm(credit, "expiry_place", expiry.rest, a);
  }
  const tolerance = /(\d{1,2})\s*\/\s*(\d{1,2})/.exec(tagText(tags, "39A") ?? "");
  if (tolerance) {
    setTerm(credit, "tolerance_plus_pct", Number(tolerance[1]), a);
    setTerm(credit, "tolerance_minus_pct", Number(tolerance[2]), a);
  }
  // :44C: and :44D: exclude each other: the one the amendment gives replaces the other.
  const latest = dateIn(tagText(tags, "44C"));
  if (latest) {
    setTerm(credit, "latest_shipment_date", latest.iso, a);
    credit.shipmentPeriod = undefined;
  }
  const period = tagText(tags, "44D");
  if (period) {
    credit.shipmentPeriod = { text: period, origin: a };
    delete credit.fields.latest_shipment_date;
    credit.origins.set("latest_shipment_date", a);
  }
  const places: [string, string][] = [["44A", "place_of_receipt"], ["44E", "port_of_loading"], ["44F", "port_of_discharge"], ["44B", "place_of_delivery"]];
  for (const [tag, key] of places) {
    const port = normalizePort(tagText(tags, tag) ?? "");
    if (port) setTerm(credit, key, port, a);
  }
  for (const [tag, key] of [["43P", "partial_shipments"], ["43T", "transhipment"]] as const) {
    const permission = normalizePermission(tagText(tags, tag) ?? "");
    if (permission) setTerm(credit, key, permission, a);
  }
  const days = /\d+/.exec(tagText(tags, "48") ?? "");
  if (days) setTerm(credit, "presentation_period_days", Number(days[0]), a);
  const goods = tagText(tags, "45B", "\n");
  if (goods) changeGoods(credit, goods, a);
  for (const [tag, key] of Object.entries(LIST_KEYS)) {
    const text = tagText(tags, tag, "\n");
    if (text) changeList(credit, key, tag, text, a);
  }
  if (tagText(tags, "79")) a.unapplied.push("the narrative (:79:) is not applied; read it against the documents");
}

/** An amendment read only from its extracted fields (no text, or a letter rather than an MT707). */
function applyFields<D extends CreditDoc>(credit: AmendedCredit<D>, a: Amendment<D>): void {
  for (const [key, value] of Object.entries(a.doc.fields)) {
    if (NOT_TERMS.has(key)) continue;
    if (!a.doc.text && AMBIGUOUS_WITHOUT_TEXT.has(key)) {
      if (key === "amount") a.unapplied.push("its amount is not applied: without the amendment's text an increase cannot be told from a new amount");
      continue;
    }
    const list = Array.isArray(value) ? value.filter((v): v is string => typeof v === "string") : undefined;
    if ((key === "documents_required" || key === "additional_conditions") && list && HAS_CODE.test(list.join("\n"))) {
      changeList(credit, key, key === "documents_required" ? "46B" : "47B", list.join("\n"), a);
      continue;
    }
    setTerm(credit, key, value, a);
  }
}

function amendmentOf<D extends CreditDoc>(doc: D, tags: TagValue[]): Amendment<D> {
  const number = Number(/\d+/.exec(tagText(tags, "26E") ?? "")?.[0] ?? NaN);
  const date = dateIn(tagText(tags, "30"))?.iso ?? readDate(doc.fields, "date_of_issue");
  const label = [
    Number.isFinite(number) ? `amendment no. ${number}` : "amendment",
    date ? `of ${date}` : undefined,
    `(${doc.id})`,
  ].filter(Boolean).join(" ");
  return { doc, number: Number.isFinite(number) ? number : undefined, date, label, unapplied: [], changes: Object.create(null) as Fields };
}

/** Amendments in the order they were issued: by number, else by date, else as presented. */
function byIssue<D extends CreditDoc>(a: Amendment<D>, b: Amendment<D>): number {
  if (a.number !== undefined && b.number !== undefined && a.number !== b.number) return a.number - b.number;
  return (a.date ?? "").localeCompare(b.date ?? "");
}

/** An amendment as presented: its document, and the text of this one message when the document has text. */
export interface AmendmentPart<D extends CreditDoc = CreditDoc> {
  doc: D;
  text?: string;
}

/**
 * The credit's terms after every amendment. `issue` are the issuing
 * message's documents with the text of that message (merged in order),
 * `amendments` the amendments in any order.
 */
export function amendCredit<D extends CreditDoc>(issue: AmendmentPart<D>[], amendments: AmendmentPart<D>[]): AmendedCredit<D> {
  const credit: AmendedCredit<D> = { fields: Object.create(null) as Fields, amendments: [], origins: new Map() };
  for (const { doc } of issue) {
    for (const [key, value] of Object.entries(doc.fields)) if (key !== "__proto__") credit.fields[key] = value;
  }
  const period = readText(credit.fields, "shipment_period") ?? issue.map((part) => shipmentPeriodText(part.text)).find(Boolean);
  if (period) credit.shipmentPeriod = { text: period };
  const read = amendments.map(({ doc, text }) => {
    const tags = text && isAmendmentText(text) ? readSwiftTags(text) : [];
    return { amendment: amendmentOf(doc, tags), tags };
  });
  read.sort((x, y) => byIssue(x.amendment, y.amendment));
  for (const { amendment, tags } of read) {
    if (tags.length) applyTags(credit, tags, amendment);
    else applyFields(credit, amendment);
    credit.amendments.push(amendment);
  }
  return credit;
}

/** " (as amended by amendment no. 1 of 2026-03-25 (amendment.pdf#1))" when an amendment set the term, else "". */
export function amendedNote<D extends CreditDoc>(credit: { origins: Map<string, Amendment<D>> } | undefined, key: string, line?: string): string {
  const origin = credit?.origins.get(line === undefined ? key : itemKey(key, line));
  return origin ? ` (as amended by ${origin.label})` : "";
}
