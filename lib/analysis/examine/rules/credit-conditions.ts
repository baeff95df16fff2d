/**
 * :47A: conditions a document can show (UCP 600 art. 14(a)); conditions no
 * document can show are disregarded (art. 14(h)). Each condition is
 * recognised by its usual wording.
 */
import { idOfLabel, DOCUMENT_TYPES } from "../../schema";
import { readDate, readText } from "../fields";
import { readParty, sameParty } from "../names";
import { compactRef, docsOfType, notingAmendment, shipmentDateOf, type Doc, type Presentation } from "../presentation";
import { readConditions } from "../requirements";
import { foldConfusables, substringDistance } from "../similarity";
import { report, type RuleSpec } from "../rule-kit";
import type { Finding } from "../types";

const CREDIT_NUMBER_ON_DOCUMENTS: RuleSpec = {
  id: "conditions.credit_number_on_documents",
  reference: "UCP 600 art. 14(a); :47A:",
  severity: "discrepancy",
  title: "The credit number on every document when :47A: asks for it",
};
const NOT_BEFORE_CREDIT: RuleSpec = {
  id: "conditions.dated_before_credit",
  reference: "UCP 600 art. 14(i); :47A:",
  severity: "discrepancy",
  title: "No document (or shipment) dated before the credit when :47A: excludes it",
};
const SHIPPER_IS_BENEFICIARY: RuleSpec = {
  id: "conditions.shipper_is_beneficiary",
  reference: "UCP 600 art. 14(k); :47A:",
  severity: "discrepancy",
  title: "B/L shipper is the beneficiary when :47A: requires it",
};
const NO_CHARTER_PARTY: RuleSpec = {
  id: "conditions.no_charter_party",
  reference: "UCP 600 art. 22; :47A:",
  severity: "discrepancy",
  title: "No charter party B/L when :47A: excludes it",
};

const REFUSED = /NOT\s+ACCEPTABLE|UNACCEPTABLE|NOT\s+ALLOWED|NOT\s+PERMITTED|MUST\s+NOT/;
const NUMBER_ON_ALL = /(?:ALL|EACH|EVERY)\s+(?:THE\s+)?DOC(?:UMENT)?S?\b.*\b(?:L\/?C|CREDIT|DC)\s*(?:NO\b|NUMBER)|(?:L\/?C|CREDIT|DC)\s*(?:NO\b\.?|NUMBER).*\b(?:ALL|EACH|EVERY)\s+(?:THE\s+)?DOC/;
const DOCUMENTS_BEFORE_CREDIT = /DOCUMENTS?\s+(?:ISSUED|DATED)\s+(?:PRIOR\s+TO|BEFORE)\s+(?:THE\s+)?(?:DATE\s+OF\s+)?(?:THIS\s+|THE\s+)?(?:L\/?C|CREDIT)/;
const SHIPMENT_BEFORE_CREDIT = /SHIPMENT\s+DATE\s+(?:PRIOR\s+TO|BEFORE)\s+(?:THE\s+)?(?:L\/?C|CREDIT)/;
const SHIPPER_NOT_BENEFICIARY = /(?:SHIPPER|CONSIGNOR)\s+OTHER\s+THAN\s+(?:THE\s+)?BENEFICIARY/;
const CHARTER_PARTY = /CHARTER\s*-?\s*PART(?:Y|IES)/;

/** Date keys that date a document itself (not an event it records). */
const ISSUE_KEYS = ["date_of_issue", "invoice_date"];

/** Edits allowed per character when the number is looked for in read text: OCR misreads a digit or two. */
const NUMBER_EDIT_SHARE = 0.15;

export function quotesNumber(text: string, lc: string): boolean {
  const needle = foldConfusables(compactRef(lc));
  return substringDistance(foldConfusables(compactRef(text)), needle) <= Math.floor(needle.length * NUMBER_EDIT_SHARE);
}

function carriesNumber(doc: Doc, lc: string): boolean | undefined {
  const field = readText(doc.fields, "lc_number");
  if (field) return true; // a different number is a conflict, reported by consistency.lc_number
  if (doc.text) return quotesNumber(doc.text, lc);
  const typeId = idOfLabel(doc.type);
  // Without text we know only for types whose extraction would have read the number.
  return typeId && "lc_number" in DOCUMENT_TYPES[typeId].fields ? false : undefined;
}

function checkNumberOnAll(p: Presentation, lc: string): Finding[] {
  const verdicts = p.presented.map((doc) => ({ doc, carries: carriesNumber(doc, lc) }));
  const missing = verdicts.filter((v) => v.carries === false).map((v) => v.doc);
  const unknown = verdicts.filter((v) => v.carries === undefined).map((v) => v.doc);
  const findings = missing.map((doc) => report(CREDIT_NUMBER_ON_DOCUMENTS, {
    documents: [doc], fields: ["lc_number"], expected: lc, severity: doc.textFromOcr ? "warning" : "discrepancy",
    message: `${doc.type} does not quote the credit number ${lc}, which the credit requires on all documents.`,
  }));
  // One note for all the documents we could not read, rather than one each.
  if (unknown.length) {
    findings.push(report(CREDIT_NUMBER_ON_DOCUMENTS, {
      documents: unknown, fields: ["lc_number"], expected: lc, severity: "info",
      message: `Could not confirm that ${unknown.length === 1 ? `the ${unknown[0]!.type} quotes` : `${unknown.length} documents (${[...new Set(unknown.map((d) => d.type))].join(", ")}) quote`} the credit number ${lc}, which the credit requires on all documents.`,
    }));
  }
  return findings;
}

function checkBeforeCredit(p: Presentation, issued: string, documents: boolean, shipment: boolean): Finding[] {
  return p.presented.flatMap((doc) => {
    const before = (date: string | undefined) => date !== undefined && date < issued;
    const early = documents ? ISSUE_KEYS.filter((k) => before(readDate(doc.fields, k))) : [];
    const shipped = doc.typeId === "bill_of_lading" ? shipmentDateOf(doc) : undefined;
    if (shipment && before(shipped)) early.push("shipped_on_board_date");
    if (!early.length) return [];
    const dates = early.map((k) => readDate(doc.fields, k) ?? shipped).join(", ");
    return [report(NOT_BEFORE_CREDIT, {
      documents: [doc], fields: early, expected: `on or after ${issued}`, found: dates,
      message: `${doc.type} is dated ${dates}, before the credit was issued on ${issued}, which the credit does not accept.`,
    })];
  });
}

function checkShipper(p: Presentation): Finding[] {
  const beneficiary = readText(p.credit!.fields, "beneficiary");
  if (!beneficiary) return [];
  return docsOfType(p, "bill_of_lading").flatMap((bl) => {
    const shipper = readParty(bl.fields, "shipper");
    if (!shipper || sameParty(shipper, beneficiary, p.tolerances.nameSimilarity)) return [];
    return [report(SHIPPER_IS_BENEFICIARY, {
      documents: [bl], fields: ["shipper"], expected: beneficiary, found: shipper,
      message: `Bill of lading shows ${shipper} as shipper; the credit does not accept a shipper other than the beneficiary.`,
    })];
  });
}

function checkCharterParty(p: Presentation): Finding[] {
  return docsOfType(p, "bill_of_lading").flatMap((bl) => {
    const text = bl.text?.toUpperCase() ?? "";
    const line = text.split("\n").find((l) => CHARTER_PARTY.test(l) && !/N\/A|NIL|NONE|NOT\s+APPLICABLE/.test(l));
    if (!line) return [];
    return [report(NO_CHARTER_PARTY, {
      documents: [bl], fields: [], found: line.trim(),
      message: "Bill of lading indicates it is subject to a charter party, which the credit does not accept.",
    })];
  });
}

export const CREDIT_CONDITION_RULES = [CREDIT_NUMBER_ON_DOCUMENTS, NOT_BEFORE_CREDIT, SHIPPER_IS_BENEFICIARY, NO_CHARTER_PARTY];

export function checkCreditConditions(p: Presentation): Finding[] {
  if (!p.credit) return [];
  const conditions = readConditions(p.credit.fields);
  const lc = readText(p.credit.fields, "lc_number");
  const issued = readDate(p.credit.docs[0]?.fields ?? {}, "date_of_issue");
  const refusing = (pattern: RegExp) => conditions.find((c) => pattern.test(c) && REFUSED.test(c));
  const refused = (pattern: RegExp) => refusing(pattern) !== undefined;
  // A finding names the amendment its condition came from, when one added it.
  const noted = (condition: string | undefined, findings: Finding[]) =>
    notingAmendment(p.credit!, "additional_conditions", condition, findings);
  const numberOnAll = conditions.find((c) => NUMBER_ON_ALL.test(c));
  const before = refusing(DOCUMENTS_BEFORE_CREDIT) ?? refusing(SHIPMENT_BEFORE_CREDIT);
  return [
    ...(lc && numberOnAll ? noted(numberOnAll, checkNumberOnAll(p, lc)) : []),
    ...(issued ? noted(before, checkBeforeCredit(p, issued, refused(DOCUMENTS_BEFORE_CREDIT), refused(SHIPMENT_BEFORE_CREDIT))) : []),
    ...(refused(SHIPPER_NOT_BENEFICIARY) ? noted(refusing(SHIPPER_NOT_BENEFICIARY), checkShipper(p)) : []),
    ...(refused(CHARTER_PARTY) ? noted(refusing(CHARTER_PARTY), checkCharterParty(p)) : []),
  ];
}
