/**
 * Who issued the invoice and to whom, and what it describes:
 * UCP 600 art. 18(a)(i)-(ii), 18(c); other documents' descriptions, art. 14(e).
 */
import { descriptionCoverage, descriptionsShareWord } from "../goods";
import { withDoubt } from "../doubt";
import { readText } from "../fields";
import { readParty, sameParty } from "../names";
import { docsOfType, type Doc, type Presentation } from "../presentation";
import { report, type RuleSpec } from "../rule-kit";
import type { Finding } from "../types";

const ISSUED_BY_BENEFICIARY: RuleSpec = {
  id: "invoice.issued_by_beneficiary",
  reference: "UCP 600 art. 18(a)(i)",
  severity: "discrepancy",
  title: "Invoice appears to be issued by the beneficiary",
};
const MADE_OUT_TO_APPLICANT: RuleSpec = {
  id: "invoice.made_out_to_applicant",
  reference: "UCP 600 art. 18(a)(ii)",
  severity: "discrepancy",
  title: "Invoice made out in the name of the applicant",
};
const INVOICE_DESCRIPTION: RuleSpec = {
  id: "invoice.goods_description",
  reference: "UCP 600 art. 18(c); ISBP 821 C3",
  severity: "discrepancy",
  title: "Invoice goods description corresponds with :45A:",
};
const DESCRIPTION_NOT_CONFLICTING: RuleSpec = {
  id: "documents.goods_description_not_conflicting",
  reference: "UCP 600 art. 14(e)",
  severity: "warning",
  title: "Other documents describe the goods in terms not conflicting with the credit",
};

interface PartyCheck {
  rule: RuleSpec;
  invoiceKey: string;
  creditKey: string;
  role: string;
  wrong: (found: string, expected: string) => string;
}

const PARTY_CHECKS: PartyCheck[] = [
  {
    rule: ISSUED_BY_BENEFICIARY, invoiceKey: "seller", creditKey: "beneficiary", role: "the beneficiary",
    wrong: (found, expected) => `Invoice is issued by ${found}, not by the beneficiary ${expected}.`,
  },
  {
    rule: MADE_OUT_TO_APPLICANT, invoiceKey: "buyer", creditKey: "applicant", role: "the applicant",
    wrong: (found, expected) => `Invoice is made out to ${found}, not to the applicant ${expected}.`,
  },
];

/** B/L consignee wording; an invoice names its parties, it does not make them out to order. */
const ORDER_CLAUSE = /^\s*(?:TO\s+)?(?:THE\s+)?ORDER\s+OF\b/i;

function checkParties(p: Presentation, invoices: Doc[]): Finding[] {
  const credit = p.credit!.fields;
  return PARTY_CHECKS.flatMap((c) => {
    const expected = readText(credit, c.creditKey);
    if (!expected) return [];
    return invoices.flatMap((doc) => {
      const found = readParty(doc.fields, c.invoiceKey);
      if (!found) {
        return [report(c.rule, {
          documents: [doc], fields: [c.invoiceKey], expected, severity: "info",
          message: `Could not read the invoice's ${c.invoiceKey} to confirm it is ${c.role}.`,
        })];
      }
      if (sameParty(found, expected, p.tolerances.nameSimilarity)) return [];
      const finding = report(c.rule, { documents: [doc], fields: [c.invoiceKey], expected, found, message: c.wrong(found, expected) });
      return [withDoubt(finding, ORDER_CLAUSE.test(found) ? [`"${found}" is a consignee's order clause, not a ${c.invoiceKey}'s name: the reader likely took the consignee box`] : [])];
    });
  });
}

/** The invoice's own words for the goods: its description and its line items. */
function invoiceDescription(doc: Doc): string | undefined {
  const items = Array.isArray(doc.fields.line_items) ? doc.fields.line_items : [];
  const lines = items.map((i) => (i && typeof i === "object" && "description" in i ? String(i.description) : ""));
  const text = [readText(doc.fields, "description_of_goods") ?? "", ...lines].join(" ").trim();
  return text || undefined;
}

function checkInvoiceDescription(p: Presentation, invoices: Doc[], credit: string): Finding[] {
  const t = p.tolerances;
  return invoices.flatMap((doc) => {
    const description = invoiceDescription(doc);
    const coverage = description ? descriptionCoverage(credit, description) : undefined;
    if (coverage === undefined || coverage >= t.descriptionFullCoverage) return [];
    const pct = Math.round(coverage * 100);
    const weak = coverage >= t.descriptionMinCoverage;
    return [report(INVOICE_DESCRIPTION, {
      documents: [doc], fields: ["description_of_goods"], expected: credit, found: description,
      severity: weak ? "warning" : "discrepancy",
      message: weak
        ? `Invoice goods description carries only ${pct}% of the credit's goods wording; check that it corresponds with field 45A.`
        : `Invoice goods description does not correspond with the description in the credit (${pct}% of its goods wording).`,
    })];
  });
}

function checkOtherDescriptions(p: Presentation, credit: string, invoiceText: string): Finding[] {
  const others = p.presented.filter((d) => d.typeId !== "commercial_invoice" && d.typeId !== "other");
  return others.flatMap((doc) => {
    const description = readText(doc.fields, "description_of_goods");
    if (!description || descriptionsShareWord(description, credit) || descriptionsShareWord(description, invoiceText)) return [];
    return [report(DESCRIPTION_NOT_CONFLICTING, {
      documents: [doc], fields: ["description_of_goods"], expected: credit, found: description,
      message: `${doc.type} describes the goods as "${description}", which shares no term with the credit's description; general terms must not conflict with it.`,
    })];
  });
}

export const INVOICE_PARTY_RULES = [ISSUED_BY_BENEFICIARY, MADE_OUT_TO_APPLICANT, INVOICE_DESCRIPTION, DESCRIPTION_NOT_CONFLICTING];

export function checkInvoiceParties(p: Presentation): Finding[] {
  if (!p.credit) return [];
  const invoices = docsOfType(p, "commercial_invoice");
  const credit = readText(p.credit.fields, "description_of_goods");
  const invoiceText = invoices.map((d) => invoiceDescription(d) ?? "").join(" ");
  return [
    ...checkParties(p, invoices),
    ...(credit ? checkInvoiceDescription(p, invoices, credit) : []),
    ...(credit ? checkOtherDescriptions(p, credit, invoiceText) : []),
  ];
}
