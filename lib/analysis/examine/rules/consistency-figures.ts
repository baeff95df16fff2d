/**
 * Figures that documents of one shipment must not contradict (UCP 600 art.
 * 14(d)): gross and net weight, number of packages. The value most documents
 * agree on is taken as expected (the B/L's on a tie); lot documents count
 * together; each dissenting document is reported once, as a warning when a
 * misread or a lot explains it (doubt.ts, lots.ts).
 */
import { readNumber } from "../fields";
import { evidenceDoubt, figureDoubt, withDoubt } from "../doubt";
import { distinctDocuments, lotHint, simpleFraction } from "../lots";
import { docsOfType, type Doc, type Presentation } from "../presentation";
import { formatNumber, report, type RuleSpec } from "../rule-kit";
import type { Finding, Tolerances } from "../types";

const GROSS_WEIGHT: RuleSpec = {
  id: "consistency.gross_weight",
  reference: "UCP 600 art. 14(d)",
  severity: "discrepancy",
  title: "Gross weight agrees across documents",
};
const NET_WEIGHT: RuleSpec = {
  id: "consistency.net_weight",
  reference: "UCP 600 art. 14(d)",
  severity: "discrepancy",
  title: "Net weight agrees across documents",
};
const PACKAGES: RuleSpec = {
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

function weightsAgree(t: Tolerances): Agree {
  return (a, b) => Math.abs(a - b) <= Math.max(t.weightKg, (Math.max(a, b) * t.weightPct) / 100);
}

/** Counts agree exactly; the margin only absorbs binary rounding of 2.08 × 1,000. */
const countsAgree: Agree = (a, b) => Math.abs(a - b) < 1e-6 * Math.max(1, a, b);

/** One fact a document (or several lot documents together) states. */
interface Unit {
  value: number;
  docs: Doc[];
  /** Several documents of one type, each for a part, that together make the value. */
  lots: boolean;
}

/**
 * Several distinct documents of one type (two certificates of weight, two
 * B/Ls) whose figures add up to what another document states are lots of one
 * shipment: they count as one unit with their sum. Otherwise each document
 * stands alone.
 */
function unitsOf(docs: Doc[], key: string, agree: Agree): Unit[] {
  const byType = new Map<string, Doc[]>();
  for (const doc of docs) byType.set(doc.type, [...(byType.get(doc.type) ?? []), doc]);
  return [...byType.values()].flatMap((same) => {
    const single = same.map((doc) => ({ value: readNumber(doc.fields, key)!, docs: [doc], lots: false }));
    const parts = distinctDocuments(same);
    if (parts.length < 2) return single;
    const sum = parts.reduce((total, group) => total + readNumber(group[0]!.fields, key)!, 0);
    const others = docs.filter((d) => !same.includes(d));
    return others.some((d) => agree(readNumber(d.fields, key)!, sum)) ? [{ value: sum, docs: same, lots: true }] : single;
  });
}

/** Units grouped by agreeing value, the group to follow first. */
function clusterUnits(units: Unit[], agree: Agree): { value: number; units: Unit[]; docs: Doc[] }[] {
  const clusters: { value: number; units: Unit[]; docs: Doc[] }[] = [];
  for (const unit of units) {
    const home = clusters.find((c) => agree(c.value, unit.value));
    if (home) {
      home.units.push(unit);
      home.docs.push(...unit.docs);
    } else clusters.push({ value: unit.value, units: [unit], docs: [...unit.docs] });
  }
  return clusters.sort((a, b) => b.units.length - a.units.length || authorityOf(a.docs) - authorityOf(b.docs));
}

/** Why a dissenting figure may not be a conflict: a misread or a lot of the shipment (unsure reads: doubt.ts weighReads). */
function doubtsOf(doc: Doc, value: number, expected: number, key: string, agree: Agree, bls: Doc[]): string[] {
  const what = `the ${key.replace(/_kg$/, "").replace(/_/g, " ")}`;
  const misread = figureDoubt(value, expected, agree, what) ?? evidenceDoubt(doc, key, value, expected, agree, what);
  const lot = lotHint(doc, bls);
  const part = simpleFraction(value, expected, agree);
  const lotDoubt = value < expected && (lot || part)
    ? `${lot ?? `${formatNumber(value)} is exactly 1/${part} of ${formatNumber(expected)}`}: it may cover one lot of the shipment`
    : undefined;
  return [misread, lotDoubt].filter((d): d is string => d !== undefined);
}

function checkFigure(p: Presentation, rule: RuleSpec, key: string, what: string, unit: string, agree: Agree): Finding[] {
  const docs = p.presented.filter((d) => readNumber(d.fields, key) !== undefined);
  const [expected, ...others] = clusterUnits(unitsOf(docs, key, agree), agree);
  if (!expected) return [];
  const witness = expected.docs[0]!;
  const bls = docsOfType(p, "bill_of_lading");
  return others.flatMap((c) =>
    c.docs.map((doc) => {
      const value = readNumber(doc.fields, key)!;
      const finding = report(rule, {
        documents: [doc, witness], fields: [key],
        expected: `${formatNumber(expected.value)}${unit}`, found: `${formatNumber(value)}${unit}`,
        message: `${doc.type} shows ${what} ${formatNumber(value)}${unit}, conflicting with ${formatNumber(expected.value)}${unit} on the ${witness.type}.`,
      });
      return withDoubt(finding, doubtsOf(doc, value, expected.value, key, agree, bls));
    }),
  );
}

export const FIGURE_RULES = [GROSS_WEIGHT, NET_WEIGHT, PACKAGES];

export function checkFigures(p: Presentation): Finding[] {
  const weights = weightsAgree(p.tolerances);
  return [
    ...checkFigure(p, GROSS_WEIGHT, "gross_weight_kg", "gross weight", " kg", weights),
    ...checkFigure(p, NET_WEIGHT, "net_weight_kg", "net weight", " kg", weights),
    ...checkFigure(p, PACKAGES, "number_of_packages", "", " packages", countsAgree),
  ];
}
