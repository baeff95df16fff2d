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
import type { Finding } from "../types";

export const LC_REFERENCE: RuleSpec = {
  id: "consistency.lc_number",
  reference: "UCP 600 art. 14(d)",
  severity: "discrepancy",
  title: "Documents quote the number of this credit",
};
export const INVOICE_REFERENCE: RuleSpec = {
  id: "consistency.invoice_number",
  reference: "UCP 600 art. 14(d)",
  severity: "discrepancy",
  title: "Invoice number quoted on other documents is the presented invoice's",
};
export const BL_REFERENCE: RuleSpec = {
  id: "consistency.bl_number",
  reference: "UCP 600 art. 14(d)",
  severity: "discrepancy",
  title: "B/L number quoted on other documents is the presented B/L's",
};
export const CONTRACT_REFERENCE: RuleSpec = {
  id: "consistency.contract_number",
  reference: "UCP 600 art. 14(d)",
  severity: "warning",
  title: "Contract number on the invoice is the contract's",
};
export const CONSIGNEE: RuleSpec = {
  id: "consistency.consignee",
  reference: "UCP 600 art. 14(d); ISBP 821 L5",
  severity: "discrepancy",
  title: "Consignee on other documents does not conflict with the B/L or the credit",
};
export const NOTIFY_PARTY: RuleSpec = {
  id: "consistency.notify_party",
  reference: "UCP 600 art. 14(d)",
  severity: "warning",
  title: "Notify party agrees between the B/L and the documentary instructions",
};
export const MARKS: RuleSpec = {
  id: "consistency.marks",
  reference: "UCP 600 art. 14(d); ISBP 821 A33",
  severity: "warning",
  title: "Shipping marks agree across documents",
};

/** Marks are retyped by hand on each document: this similar is the same marking. */
const MARKS_SIMILARITY = 0.8;

/** On a page read by OCR, a reference one character away from the expected one may be that reference misread. */
const OCR_REFERENCE_EDITS = 1;

/** References are compared modulo OCR confusions (referenceKey): BKKJEA26O412 is BKKJEA260412. */
function checkReference(docs: Doc[], key: string, sources: Doc[], known: string[], rule: RuleSpec, what: string): Finding[] {
  if (!known.length) return [];
  // The reference itself may be the unsure read: a B/L number read with low confidence on the B/L.
  const unsureSources = sources.map((d) => doubtfulRead(d, key)).filter((d) => d !== undefined);
  const wanted = known.map(referenceKey);
  return docs.flatMap((doc) => {
    const found = readText(doc.fields, key);
    // A reference number has digits; a value without any is a misread label, not a conflicting reference.
    if (!found || !/\d/.test(found) || wanted.includes(referenceKey(found))) return [];
    const finding = report(rule, {
      documents: [doc], fields: [key], expected: known.join(", "), found,
      message: `${doc.type} quotes ${what} ${found}, not ${known.join(" or ")}.`,
    });
    const near = doc.textFromOcr && wanted.some((w) => editDistance(w, referenceKey(found)) <= OCR_REFERENCE_EDITS);
    const ocr = near ? [`the ${doc.type} was read by OCR and ${found} is one character away from ${known.join(" / ")}`] : [];
    return [withDoubt(finding, [...ocr, ...unsureSources])];
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
    ...checkReference(invoices, "contract_number", agreements, valuesOf(agreements, "contract_number"), CONTRACT_REFERENCE, "contract number"),
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
