/**
 * The presentation as the rules see it: the credit (MT700 merged with its
 * MT707 amendments), the instruction and contract beside it, and the
 * documents presented under it, each with typed access to its fields.
 */
import { idOfLabel, type DocumentTypeId } from "../schema";
import type { DocumentTypeLabel } from "../types";
import { readDate, readText, type Fields } from "./fields";
import type { ExaminedDocument, FindingDocument, Tolerances } from "./types";

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
}

export interface Credit {
  /** The credit's terms after every amendment, later amendments winning. */
  fields: Fields;
  /** The issuing message first, then amendments by date. */
  docs: Doc[];
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

export function toDoc(document: ExaminedDocument): Doc {
  const { split, extracted } = document.result;
  return {
    id: document.id,
    fileName: document.fileName,
    type: split.document_type,
    typeId: idOfLabel(split.document_type),
    pages: split.pages,
    fields: extracted,
    text: document.text,
    textFromOcr: document.textSource === "ocr",
  };
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
      return lc !== undefined && compactRef(lc) === key;
    }).length;
    const size = Math.max(...docs.map((d) => Object.keys(d.fields).length));
    const score = quoted * 1000 + size;
    if (score > bestScore) [best, bestScore] = [key, score];
  }
  return best;
}

/** Groups credit documents by number; documents without a number join the chosen credit. */
export function resolveCredit(creditDocs: Doc[], presented: Doc[]): Credit | undefined {
  if (!creditDocs.length) return undefined;
  const groups = new Map<string, Doc[]>();
  const unnumbered: Doc[] = [];
  for (const doc of creditDocs) {
    const lc = readText(doc.fields, "lc_number");
    if (!lc) unnumbered.push(doc);
    else groups.set(compactRef(lc), [...(groups.get(compactRef(lc)) ?? []), doc]);
  }
  const key = chooseCredit(groups, presented);
  const chosen = [...(key ? groups.get(key)! : []), ...unnumbered].sort(byIssueDate);
  const fields: Fields = {};
  for (const doc of chosen) Object.assign(fields, doc.fields);
  const others = creditDocs.filter((d) => !chosen.includes(d));
  return { fields, docs: chosen, others };
}

/** Amendments: credit documents dated after the first dated one of the same credit. */
export function isAmendment(credit: Credit, doc: Doc): boolean {
  const first = credit.docs.map((d) => readDate(d.fields, "date_of_issue")).find(Boolean);
  const own = readDate(doc.fields, "date_of_issue");
  return first !== undefined && own !== undefined && own > first;
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
 * Originals and copies of one document (same reference number) as one group:
 * totals and counts are taken once per group. Documents without the number stand alone.
 */
export function groupCopies(docs: Doc[], key: string): Doc[][] {
  const groups = new Map<string, Doc[]>();
  for (const doc of docs) {
    const ref = readText(doc.fields, key);
    const id = ref ? `ref:${compactRef(ref)}` : `doc:${doc.id}`;
    groups.set(id, [...(groups.get(id) ?? []), doc]);
  }
  return [...groups.values()];
}
