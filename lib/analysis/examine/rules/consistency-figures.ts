/**
 * Figures that documents of one shipment must not contradict (UCP 600 art.
 * 14(d)): gross and net weight, number of packages. The value most documents
 * agree on is taken as expected (the B/L's on a tie); each dissenting document
 * is reported once.
 */
import { readNumber } from "../fields";
import type { Doc, Presentation } from "../presentation";
import { formatNumber, report, type RuleSpec } from "../rule-kit";
import type { Finding, Tolerances } from "../types";

export const GROSS_WEIGHT: RuleSpec = {
  id: "consistency.gross_weight",
  reference: "UCP 600 art. 14(d)",
  severity: "discrepancy",
  title: "Gross weight agrees across documents",
};
export const NET_WEIGHT: RuleSpec = {
  id: "consistency.net_weight",
  reference: "UCP 600 art. 14(d)",
  severity: "discrepancy",
  title: "Net weight agrees across documents",
};
export const PACKAGES: RuleSpec = {
  id: "consistency.packages",
  reference: "UCP 600 art. 14(d)",
  severity: "discrepancy",
  title: "Number of packages agrees across documents",
};

/** Whose figure wins a tie: the transport document, then the packing list, then the invoice. */
const AUTHORITY = ["bill_of_lading", "packing_list", "commercial_invoice", "certificate_of_weight"];

function authorityOf(docs: Doc[]): number {
  return Math.min(...docs.map((d) => {
    const at = AUTHORITY.indexOf(d.typeId ?? "");
    return at < 0 ? AUTHORITY.length : at;
  }));
}

type Agree = (a: number, b: number) => boolean;

export function weightsAgree(t: Tolerances): Agree {
  return (a, b) => Math.abs(a - b) <= Math.max(t.weightKg, (Math.max(a, b) * t.weightPct) / 100);
}

/** Documents grouped by agreeing value, the group to follow first. */
export function clusterValues(docs: Doc[], key: string, agree: Agree): { value: number; docs: Doc[] }[] {
  const clusters: { value: number; docs: Doc[] }[] = [];
  for (const doc of docs) {
    const value = readNumber(doc.fields, key)!;
    const home = clusters.find((c) => agree(c.value, value));
    if (home) home.docs.push(doc);
    else clusters.push({ value, docs: [doc] });
  }
  return clusters.sort((a, b) => b.docs.length - a.docs.length || authorityOf(a.docs) - authorityOf(b.docs));
}

function checkFigure(p: Presentation, rule: RuleSpec, key: string, what: string, unit: string, agree: Agree): Finding[] {
  const docs = p.presented.filter((d) => readNumber(d.fields, key) !== undefined);
  const [expected, ...others] = clusterValues(docs, key, agree);
  if (!expected) return [];
  const witness = expected.docs[0]!;
  return others.flatMap((c) =>
    c.docs.map((doc) => report(rule, {
      documents: [doc, witness], fields: [key],
      expected: `${formatNumber(expected.value)}${unit}`, found: `${formatNumber(c.value)}${unit}`,
      message: `${doc.type} shows ${what} ${formatNumber(c.value)}${unit}, conflicting with ${formatNumber(expected.value)}${unit} on the ${witness.type}.`,
    })),
  );
}

export const FIGURE_RULES = [GROSS_WEIGHT, NET_WEIGHT, PACKAGES];

export function checkFigures(p: Presentation): Finding[] {
  const weights = weightsAgree(p.tolerances);
  return [
    ...checkFigure(p, GROSS_WEIGHT, "gross_weight_kg", "gross weight", " kg", weights),
    ...checkFigure(p, NET_WEIGHT, "net_weight_kg", "net weight", " kg", weights),
    ...checkFigure(p, PACKAGES, "number_of_packages", "", " packages", (a, b) => a === b),
  ];
}
