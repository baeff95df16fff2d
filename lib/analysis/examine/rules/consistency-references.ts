/**
 * References and parties that documents must not contradict (UCP 600 art.
 * 14(d)): credit, invoice, B/L and contract numbers; consignee, notify party
 * and shipping marks.
 */
import { readText } from "../fields";
import { isBlankOrder, isPlausibleParty, readParty, sameParty } from "../names";
import { docsOfType, type Doc, type Presentation } from "../presentation";
import { report, type RuleSpec } from "../rule-kit";
import { doubtfulRead, withDoubt } from "../doubt";
import { editDistance, referenceKey, similarity } from "../similarity";
import { textShowsReference } from "../text-shows";
import type { Finding } from "../types";

const LC_REFERENCE: RuleSpec = {
  id: "consistency.lc_number",
  reference: "UCP 600 art. 14(d)",
  severity: "discrepancy",
  title: "Documents quote the number of this credit",
};
const INVOICE_REFERENCE: RuleSpec = {
  id: "consistency.invoice_number",
  reference: "UCP 600 art. 14(d)",
  severity: "discrepancy",
  title: "Invoice number quoted on other documents is the presented invoice's",
};
const BL_REFERENCE: RuleSpec = {
  id: "consistency.bl_number",
  reference: "UCP 600 art. 14(d)",
  severity: "discrepancy",
  title: "B/L number quoted on other documents is the presented B/L's",
};
const CONTRACT_REFERENCE: RuleSpec = {
  id: "consistency.contract_number",
  reference: "UCP 600 art. 14(d)",
  severity: "warning",
  title: "Contract number on the invoice is the contract's",
};
const CONSIGNEE: RuleSpec = {
  id: "consistency.consignee",
  reference: "UCP 600 art. 14(d); ISBP 821 L5",
  severity: "discrepancy",
  title: "Consignee on other documents does not conflict with the B/L or the credit",
};
const NOTIFY_PARTY: RuleSpec = {
  id: "consistency.notify_party",
  reference: "UCP 600 art. 14(d)",
  severity: "warning",
  title: "Notify party agrees between the B/L and the documentary instructions",
};
const MARKS: RuleSpec = {
  id: "consistency.marks",
  reference: "UCP 600 art. 14(d); ISBP 821 A33",
  severity: "warning",
  title: "Shipping marks agree across documents",
};

/** Marks are retyped by hand on each document: this similar is the same marking. */
const MARKS_SIMILARITY = 0.8;

/** On a page read by OCR, a reference one character away from the expected one may be that reference misread. */
const OCR_REFERENCE_EDITS = 1;

/** "Bill of Lading (pages 3-4)" for doubts that name a document. */
function named(doc: Doc): string {
  return `${doc.type} (page${doc.pages.length > 1 ? "s" : ""} ${doc.pages.join(", ")})`;
}

/**
 * References are compared modulo OCR confusions (referenceKey): BKKJEA26O412
 * is BKKJEA260412. `owners` are the documents the reference names (the B/Ls
 * for a B/L number): where the reader found no number on one of them, the
 * quoted reference is looked for in that document's own text, never assumed
 * to be what the other documents say.
 */
function checkReference(docs: Doc[], key: string, sources: Doc[], known: string[], rule: RuleSpec, what: string, owners = sources): Finding[] {
  const silent = owners.filter((d) => !readText(d.fields, key));
  if (!known.length && !silent.length) return [];
  // The reference itself may be the unsure read: a B/L number read with low confidence on the B/L.
  const unsureSources = sources.map((d) => doubtfulRead(d, key)).filter((d) => d !== undefined);
  const wanted = known.map(referenceKey);
  return docs.flatMap((doc) => {
    const found = readText(doc.fields, key);
    // A reference number has digits; a value without any is a misread label, not a conflicting reference.
    if (!found || !/\d/.test(found) || wanted.includes(referenceKey(found))) return [];
    const shown = silent.map((owner) => textShowsReference(owner, found));
    if (shown.includes(true)) return [];
    const unread = silent.filter((_, i) => shown[i] === undefined);
    if (!known.length && unread.length === silent.length) return [];
    const finding = report(rule, {
      documents: known.length ? [doc] : [doc, silent[0]!], fields: [key], expected: known.length ? known.join(", ") : undefined, found,
      message: known.length
        ? `${doc.type} quotes ${what} ${found}, not ${known.join(" or ")}.`
        : `${doc.type} quotes ${what} ${found}, which the ${silent[0]!.type} does not show.`,
    });
    const near = doc.textFromOcr && wanted.some((w) => editDistance(w, referenceKey(found)) <= OCR_REFERENCE_EDITS);
    const ocr = near ? [`the ${doc.type} was read by OCR and ${found} is one character away from ${known.join(" / ")}`] : [];
    const notRead = unread.map((owner) => `no ${what} could be read on the ${named(owner)}, which may be the one quoted`);
    const ocrOwners = silent.filter((owner, i) => shown[i] === false && owner.textFromOcr).map((owner) => `the ${named(owner)} was read by OCR, which may have garbled its ${what}`);
    // The owner's text shows the quoted number too: the reader may have taken another of its numbers as this one.
    const alsoShown = owners.filter((owner) => readText(owner.fields, key) && textShowsReference(owner, found))
      .map((owner) => `the ${named(owner)} also shows ${found}`);
    return [withDoubt(finding, [...ocr, ...unsureSources, ...notRead, ...ocrOwners, ...alsoShown])];
  });
}

function valuesOf(docs: Doc[], key: string): string[] {
  return [...new Set(docs.map((d) => readText(d.fields, key)).filter((v) => v !== undefined))];
}

function checkReferences(p: Presentation): Finding[] {
  const creditNumber = p.credit ? readText(p.credit.fields, "lc_number") : undefined;
  const lc = creditNumber ? [creditNumber] : [];
  const invoices = docsOfType(p, "commercial_invoice");
  const bls = docsOfType(p, "bill_of_lading");
  const agreements = [...p.contracts, ...p.instructions];
  return [
    ...checkReference(p.presented, "lc_number", p.credit?.docs ?? [], lc, LC_REFERENCE, "credit number"),
    ...checkReference(p.presented.filter((d) => d.typeId !== "commercial_invoice"), "invoice_number", invoices, valuesOf(invoices, "invoice_number"), INVOICE_REFERENCE, "invoice number"),
    ...checkReference(p.presented.filter((d) => d.typeId !== "bill_of_lading"), "bl_number", bls, valuesOf(bls, "bl_number"), BL_REFERENCE, "bill of lading number"),
    ...checkReference(invoices, "contract_number", agreements, valuesOf(agreements, "contract_number"), CONTRACT_REFERENCE, "contract number", p.contracts),
  ];
}

/** Who may appear as consignee elsewhere: the B/L's consignee or notify party, the applicant, the issuing bank. */
function allowedConsignees(p: Presentation, bls: Doc[]): string[] {
  const credit = p.credit?.fields ?? {};
  return [
    ...valuesOf(bls, "consignee"), ...valuesOf(bls, "notify_party"),
    ...[readText(credit, "applicant"), readText(credit, "issuing_bank")].filter((v) => v !== undefined),
  ].filter((name) => !isBlankOrder(name) && isPlausibleParty(name));
}

function checkConsignee(p: Presentation, bls: Doc[]): Finding[] {
  const allowed = allowedConsignees(p, bls);
  if (!allowed.length) return [];
  return p.presented.filter((d) => d.typeId !== "bill_of_lading").flatMap((doc) => {
    const consignee = readParty(doc.fields, "consignee");
    if (!consignee || isBlankOrder(consignee)) return [];
    if (allowed.some((a) => sameParty(consignee, a, p.tolerances.nameSimilarity))) return [];
    return [report(CONSIGNEE, {
      documents: [doc, ...bls.slice(0, 1)], fields: ["consignee"], expected: allowed.join(" / "), found: consignee,
      message: `${doc.type} names ${consignee} as consignee, who is neither the B/L consignee, the notify party nor the applicant.`,
    })];
  });
}

function checkNotify(p: Presentation, bls: Doc[]): Finding[] {
  return p.instructions.flatMap((instruction) => {
    const wanted = readParty(instruction.fields, "notify_party");
    if (!wanted) return [];
    return bls.flatMap((bl) => {
      const shown = readParty(bl.fields, "notify_party");
      if (!shown || sameParty(shown, wanted, p.tolerances.nameSimilarity)) return [];
      return [report(NOTIFY_PARTY, {
        documents: [bl, instruction], fields: ["notify_party"], expected: wanted, found: shown,
        message: `Bill of lading names ${shown} as notify party; the documentary instructions name ${wanted}.`,
      })];
    });
  });
}

const MARK_KEYS = ["marks_and_numbers", "distinguishing_marks"];

function marksOf(doc: Doc): string | undefined {
  for (const key of MARK_KEYS) {
    const value = readText(doc.fields, key);
    if (value) return value;
  }
  return undefined;
}

function sameMarks(a: string, b: string): boolean {
  const x = referenceKey(a);
  const y = referenceKey(b);
  return x.includes(y) || y.includes(x) || similarity(x, y) >= MARKS_SIMILARITY;
}

function checkMarks(p: Presentation): Finding[] {
  const marked = [...p.presented, ...p.instructions].filter((d) => marksOf(d));
  const [first, ...rest] = marked;
  if (!first) return [];
  return rest.flatMap((doc) => {
    if (sameMarks(marksOf(first)!, marksOf(doc)!)) return [];
    return [report(MARKS, {
      documents: [doc, first], fields: MARK_KEYS.filter((k) => readText(doc.fields, k)), expected: marksOf(first), found: marksOf(doc),
      message: `${doc.type} shows shipping marks "${marksOf(doc)}", differing from "${marksOf(first)}" on the ${first.type}.`,
    })];
  });
}

export const REFERENCE_RULES = [LC_REFERENCE, INVOICE_REFERENCE, BL_REFERENCE, CONTRACT_REFERENCE, CONSIGNEE, NOTIFY_PARTY, MARKS];

export function checkReferencesAndParties(p: Presentation): Finding[] {
  const bls = docsOfType(p, "bill_of_lading");
  return [...checkReferences(p), ...checkConsignee(p, bls), ...checkNotify(p, bls), ...checkMarks(p)];
}
