/**
 * The presentation as the rules see it: the credit (MT700 merged with its
 * MT707 amendments), the instruction and contract beside it, and the
 * documents presented under it, each with typed access to its fields.
 */
import { idOfLabel, type DocumentTypeId } from "../schema";
import type { DocumentTypeLabel, Evidence } from "../types";
import { withoutCaptions, type SetAside } from "./captions";
import { amendCredit, HAS_CODE, itemKey, type Amendment, type AmendmentPart } from "./amendments";
import { readDate, readList, readText, type Fields } from "./fields";
import { referenceKey } from "./similarity";
import { splitMessages } from "./swift-text";
import type { ExaminedDocument, Finding, FindingDocument, Tolerances } from "./types";

export interface Doc {
  id: string;
  fileName?: string;
  type: DocumentTypeLabel;
  typeId: DocumentTypeId | undefined;
  pages: number[];
  fields: Fields;
  text?: string;
  /** The text was read by OCR: a word not found in it may still be on the page. */
  textFromOcr: boolean;
  /** Where and how surely each value was read, when the analysis carries evidence. */
  evidence?: Record<string, Evidence>;
  /** Values that were captions, not values (captions.ts): left out of `fields`. */
  setAside: SetAside[];
}

export interface Credit {
  /** The credit's terms after every amendment, applied in order (amendments.ts). */
  fields: Fields;
  /** The issuing message first, then amendments by date. */
  docs: Doc[];
  /** Documents holding the issuing message (MT700, MT701, a letter of credit), whose extracted fields are the base terms. */
  issueDocs: Doc[];
  /** The amendments applied, in the order they were issued. */
  amendments: Amendment<Doc>[];
  /** Which amendment set a term (or a line of :46A:/:47A:); see amendedNote. */
  origins: Map<string, Amendment<Doc>>;
  /** The :44D: shipment period in force, and the amendment that set it. */
  shipmentPeriod?: { text: string; origin?: Amendment<Doc> };
  /** Credit documents of the set that carry another credit number. */
  others: Doc[];
}

export interface Presentation {
  credit?: Credit;
  instructions: Doc[];
  contracts: Doc[];
  /** Everything presented for examination: neither credit, instruction nor contract. */
  presented: Doc[];
  all: Doc[];
  presentationDate: string;
  tolerances: Tolerances;
}

function toDoc(document: ExaminedDocument): Doc {
  const { split, extracted } = document.result;
  const evidence = readEvidence(document.result.evidence);
  const { fields, setAside } = withoutCaptions(withLineItemTotals(extracted), evidence);
  const doc: Doc = {
    id: document.id,
    fileName: document.fileName,
    type: split.document_type,
    typeId: idOfLabel(split.document_type),
    pages: split.pages,
    fields,
    text: document.text,
    textFromOcr: document.textSource === "ocr",
    setAside,
  };
  if (evidence) doc.evidence = evidence;
  return doc;
}

/** Evidence is untrusted input like the fields: an entry without a numeric confidence is ignored. */
function readEvidence(value: unknown): Record<string, Evidence> | undefined {
  if (typeof value !== "object" || value === null || Array.isArray(value)) return undefined;
  const entries = Object.entries(value).filter(([, e]) => {
    const confidence = (e as Partial<Evidence> | null)?.confidence;
    return typeof confidence === "number" && Number.isFinite(confidence);
  });
  return entries.length ? (Object.fromEntries(entries) as Record<string, Evidence>) : undefined;
}

/**
 * An invoice or contract that lists its goods only as line items states its
 * goods and its quantity there: the items' descriptions, and their quantities
 * summed when every item counts in the same unit. What the document states
 * itself always wins.
 */
export function withLineItemTotals(fields: Fields): Fields {
  const items = Array.isArray(fields.line_items) ? (fields.line_items as Record<string, unknown>[]) : [];
  if (items.length === 0) return fields;
  const derived: Fields = { ...fields };
  const descriptions = [...new Set(items.map((i) => (typeof i?.description === "string" ? i.description.trim() : "")).filter(Boolean))];
  if (readText(fields, "description_of_goods") === undefined && descriptions.length > 0) derived.description_of_goods = descriptions.join("; ");
  const units = new Set(items.map((i) => (typeof i?.unit === "string" ? i.unit.trim().toUpperCase() : "")));
  const quantities = items.map((i) => i?.quantity);
  if (fields.quantity === undefined && units.size === 1 && !units.has("") && quantities.every((q) => typeof q === "number" && Number.isFinite(q))) {
    // Summed in thousandths so that 25.000 + 10.000 + 13.000 stays 48.
    derived.quantity = (quantities as number[]).reduce((sum, q) => sum + Math.round(q * 1000), 0) / 1000;
    derived.quantity_unit = [...units][0]!;
  }
  return derived;
}

export function refOf(doc: Doc): FindingDocument {
  return { id: doc.id, type: doc.type, pages: doc.pages };
}

/** Reference numbers compared without spaces, dashes, slashes or case. */
export function compactRef(value: string): string {
  return value.toUpperCase().replace(/[^A-Z0-9]/g, "");
}

function byIssueDate(a: Doc, b: Doc): number {
  return (readDate(a.fields, "date_of_issue") ?? "").localeCompare(readDate(b.fields, "date_of_issue") ?? "");
}

/** The credit most of the set refers to: the one whose number the presented documents quote most, else the fullest. */
function chooseCredit(groups: Map<string, Doc[]>, presented: Doc[]): string | undefined {
  let best: string | undefined;
  let bestScore = -1;
  for (const [key, docs] of groups) {
    const quoted = presented.filter((d) => {
      const lc = readText(d.fields, "lc_number");
      return lc !== undefined && referenceKey(lc) === key;
    }).length;
    const size = Math.max(...docs.map((d) => Object.keys(d.fields).length));
    const score = quoted * 1000 + size;
    if (score > bestScore) [best, bestScore] = [key, score];
  }
  return best;
}


/**
 * Without its text (a stored analysis), an MT707 shows itself by its fields:
 * :46B:/:47B: lines opening with ADD/DELETE/REPALL, or no applicant (:50: is
 * mandatory in an MT700, optional in an MT707) beside a credit that names one.
 * Its :31C: is the credit's issue date, so its date does not tell.
 */
function looksLikeAmendment(doc: Doc, creditNamesApplicant: boolean): boolean {
  const coded = ["documents_required", "additional_conditions"].some((k) => (readList(doc.fields, k) ?? []).some((l) => HAS_CODE.test(l)));
  return coded || (creditNamesApplicant && !readText(doc.fields, "applicant"));
}

/**
 * Amendments: each MT707 in a document's text (a split may hold the MT700
 * and its MT707s, pages of one type); without one, a credit document dated
 * after the first dated document of the same credit (no text, or a letter).
 */
function splitAmendments(docs: Doc[]): { issue: AmendmentPart<Doc>[]; amendments: AmendmentPart<Doc>[] } {
  const issue: AmendmentPart<Doc>[] = [];
  const amendments: AmendmentPart<Doc>[] = [];
  const unmarked: Doc[] = [];
  for (const doc of docs) {
    const messages = splitMessages(doc.text);
    if (!messages.amendments.length) {
      unmarked.push(doc);
      continue;
    }
    if (messages.issue !== undefined) issue.push({ doc, text: messages.issue });
    amendments.push(...messages.amendments.map((text) => ({ doc, text })));
  }
  const first = [...issue.map((p) => p.doc), ...unmarked].map((d) => readDate(d.fields, "date_of_issue")).sort().find(Boolean);
  const named = unmarked.some((d) => readText(d.fields, "applicant"));
  for (const doc of unmarked) {
    const own = readDate(doc.fields, "date_of_issue");
    const later = first !== undefined && own !== undefined && own > first;
    if (later || (!doc.text && looksLikeAmendment(doc, named))) amendments.push({ doc, text: doc.text });
    else issue.push({ doc, text: doc.text });
  }
  issue.sort((a, b) => byIssueDate(a.doc, b.doc));
  return { issue, amendments };
}

/** Groups credit documents by number (read modulo OCR confusions); documents without a number join the chosen credit. */
function resolveCredit(creditDocs: Doc[], presented: Doc[]): Credit | undefined {
  if (!creditDocs.length) return undefined;
  const groups = new Map<string, Doc[]>();
  const unnumbered: Doc[] = [];
  for (const doc of creditDocs) {
    const lc = readText(doc.fields, "lc_number");
    if (!lc) unnumbered.push(doc);
    else groups.set(referenceKey(lc), [...(groups.get(referenceKey(lc)) ?? []), doc]);
  }
  const key = chooseCredit(groups, presented);
  const chosen = [...(key ? groups.get(key)! : []), ...unnumbered].sort(byIssueDate);
  const { issue, amendments } = splitAmendments(chosen);
  const amended = amendCredit(issue, amendments);
  const others = creditDocs.filter((d) => !chosen.includes(d));
  return {
    fields: amended.fields, docs: chosen, issueDocs: issue.map((p) => p.doc), amendments: amended.amendments,
    origins: amended.origins, shipmentPeriod: amended.shipmentPeriod, others,
  };
}

/** A credit document that is only an amendment (a split holding the MT700 too is the credit). */
export function isAmendment(credit: Credit, doc: Doc): boolean {
  return credit.amendments.some((a) => a.doc === doc) && !credit.issueDocs.includes(doc);
}

/**
 * Findings that follow from a line of :46A:/:47A: an amendment added: the
 * amendment joins the documents and the message says where the line came from.
 */
export function notingAmendment(credit: Credit, key: string, line: string | undefined, findings: Finding[]): Finding[] {
  const origin = line === undefined ? undefined : credit.origins.get(itemKey(key, line));
  if (!origin) return findings;
  return findings.map((f) => ({
    ...f,
    documents: [...f.documents, refOf(origin.doc)],
    message: `${f.message.replace(/\.$/, "")} (a requirement added by ${origin.label}).`,
  }));
}

/** The amendment documents that set a term, for a finding's documents. */
export function amendmentDocs(credit: Credit, ...keys: string[]): Doc[] {
  return [...new Set(keys.map((k) => credit.origins.get(k)?.doc).filter((d): d is Doc => d !== undefined))];
}

export function buildPresentation(documents: ExaminedDocument[], presentationDate: string, tolerances: Tolerances): Presentation {
  const all = documents.map(toDoc);
  const creditDocs = all.filter((d) => d.typeId === "letter_of_credit");
  const instructions = all.filter((d) => d.typeId === "document_instruction");
  const contracts = all.filter((d) => d.typeId === "contract");
  const presented = all.filter((d) => !creditDocs.includes(d) && !instructions.includes(d) && !contracts.includes(d));
  return { credit: resolveCredit(creditDocs, presented), instructions, contracts, presented, all, presentationDate, tolerances };
}

export function docsOfType(p: Presentation, ...types: DocumentTypeId[]): Doc[] {
  return p.presented.filter((d) => d.typeId !== undefined && types.includes(d.typeId));
}

/** A B/L's date of shipment: the on-board notation, else its issue date (UCP 600 art. 20(a)(ii)). */
export function shipmentDateOf(bl: Doc): string | undefined {
  return readDate(bl.fields, "shipped_on_board_date") ?? readDate(bl.fields, "date_of_issue");
}

/** The presentation's date of shipment: the latest of its transport documents (art. 31(b)). */
export function shipmentOf(p: Presentation): { date: string; doc: Doc } | undefined {
  let latest: { date: string; doc: Doc } | undefined;
  for (const bl of docsOfType(p, "bill_of_lading")) {
    const date = shipmentDateOf(bl);
    if (date && (!latest || date > latest.date)) latest = { date, doc: bl };
  }
  return latest;
}

/**
 * Originals and copies of one document (same reference number, modulo OCR confusions) as one group:
 * totals and counts are taken once per group. Documents without the number stand alone.
 */
export function groupCopies(docs: Doc[], key: string): Doc[][] {
  const groups = new Map<string, Doc[]>();
  for (const doc of docs) {
    const ref = readText(doc.fields, key);
    const id = ref ? `ref:${referenceKey(ref)}` : `doc:${doc.id}`;
    groups.set(id, [...(groups.get(id) ?? []), doc]);
  }
  return [...groups.values()];
}
