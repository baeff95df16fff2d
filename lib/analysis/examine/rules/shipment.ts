/**
 * The shipment against the credit's shipment terms: date (:44C:) or period
 * (:44D:), ports (:44E:/:44F:), partial shipments (:43P:) and transhipment (:43T:).
 * A term an amendment set is named with it in the finding.
 */
import { amendedNote } from "../amendments";
import { readDate, readList, readText } from "../fields";
import { isPlausiblePlace, isPortRange, portMeetsCredit } from "../ports";
import { amendmentDocs, compactRef, docsOfType, groupCopies, shipmentDateOf, type Doc, type Presentation } from "../presentation";
import { report, type RuleSpec } from "../rule-kit";
import { readShipmentPeriod } from "../shipment-period";
import type { Finding } from "../types";

const LATEST_SHIPMENT: RuleSpec = {
  id: "shipment.latest_date",
  reference: "UCP 600 art. 20(a)(ii), 31(b)",
  severity: "discrepancy",
  title: "On-board date not later than the latest date of shipment (:44C:)",
};
const SHIPMENT_PERIOD: RuleSpec = {
  id: "shipment.period",
  reference: "UCP 600 art. 3, 20(a)(ii)",
  severity: "discrepancy",
  title: "On-board date within the shipment period (:44D:), read as art. 3 defines its words",
};
const PORT_OF_LOADING: RuleSpec = {
  id: "shipment.port_of_loading",
  reference: "UCP 600 art. 20(a)(iii); ISBP 821 E6",
  severity: "discrepancy",
  title: "Port of loading as the credit states (:44E:)",
};
const PORT_OF_DISCHARGE: RuleSpec = {
  id: "shipment.port_of_discharge",
  reference: "UCP 600 art. 20(a)(iii); ISBP 821 E8",
  severity: "discrepancy",
  title: "Port of discharge as the credit states (:44F:)",
};
const PARTIAL_SHIPMENT: RuleSpec = {
  id: "shipment.partial_shipments",
  reference: "UCP 600 art. 31(b)",
  severity: "discrepancy",
  title: "No partial shipment when :43P: prohibits it",
};
const TRANSHIPMENT: RuleSpec = {
  id: "shipment.transhipment",
  reference: "UCP 600 art. 20(b), 20(c)",
  severity: "discrepancy",
  title: "No transhipment when :43T: prohibits it (containers excepted, art. 20(c)(ii))",
};

function checkLatestDate(p: Presentation, bls: Doc[]): Finding[] {
  const latest = readText(p.credit!.fields, "latest_shipment_date");
  if (!latest) return [];
  const note = amendedNote(p.credit, "latest_shipment_date");
  return bls.flatMap((bl) => {
    const date = shipmentDateOf(bl);
    if (!date || date <= latest) return [];
    return [report(LATEST_SHIPMENT, {
      documents: [bl, ...amendmentDocs(p.credit!, "latest_shipment_date")], fields: ["shipped_on_board_date"],
      expected: `on or before ${latest}${note}`, found: date,
      message: `Bill of lading shows shipment on ${date}, after the latest date of shipment ${latest}${note}.`,
    })];
  });
}

function describePeriod(from: string | undefined, to: string | undefined): string {
  if (from && to) return `from ${from} to ${to}`;
  return from ? `on or after ${from}` : `on or before ${to}`;
}

function checkPeriod(p: Presentation, bls: Doc[]): Finding[] {
  const period = p.credit!.shipmentPeriod;
  if (!period) return [];
  const origin = period.origin;
  const note = origin ? ` (as amended by ${origin.label})` : "";
  const amendment = origin ? [origin.doc] : [];
  const read = readShipmentPeriod(period.text, readDate(p.credit!.fields, "date_of_issue"));
  if (!read) {
    return [report(SHIPMENT_PERIOD, {
      documents: [...p.credit!.docs.slice(0, 1), ...amendment], fields: [], severity: "info", expected: period.text,
      message: `Could not read the shipment period "${period.text}"${note}; check the on-board date against it.`,
    })];
  }
  const expected = `${describePeriod(read.from, read.to)} ("${period.text}"${note})`;
  return bls.flatMap((bl) => {
    const date = shipmentDateOf(bl);
    if (!date) return [];
    const early = read.from !== undefined && date < read.from;
    const late = read.to !== undefined && date > read.to;
    if (!early && !late) return [];
    return [report(SHIPMENT_PERIOD, {
      documents: [bl, ...amendment], fields: ["shipped_on_board_date"], expected, found: date,
      message: `Bill of lading shows shipment on ${date}, ${early ? "before" : "after"} the shipment period "${period.text}" (${describePeriod(read.from, read.to)})${note}.`,
    })];
  });
}

function checkPort(p: Presentation, bls: Doc[], rule: RuleSpec, key: string, name: string): Finding[] {
  const credit = readText(p.credit!.fields, key);
  if (!credit) return [];
  const note = amendedNote(p.credit, key);
  const amendment = amendmentDocs(p.credit!, key);
  return bls.flatMap((bl) => {
    const actual = readText(bl.fields, key);
    if (!actual || !isPlausiblePlace(actual)) return [];
    const base = { documents: [bl, ...amendment], fields: [key], expected: `${credit}${note}`, found: actual };
    if (isPortRange(actual)) {
      return [report(rule, { ...base, message: `Bill of lading states the ${name} as "${actual}" instead of the actual port within the credit's range.` })];
    }
    const verdict = portMeetsCredit(credit, actual);
    if (verdict === "same") return [];
    if (verdict === "unknown") {
      return [report(rule, { ...base, severity: "info", message: `Could not confirm that the ${name} ${actual} lies within "${credit}"${note}.` })];
    }
    return [report(rule, { ...base, message: `Bill of lading shows ${name} ${actual}, not ${credit} as the credit requires${note}.` })];
  });
}

/** One journey: same vessel and voyage, same destination (art. 31(b)); each part undefined when it was not read. */
function journeyOf(bl: Doc): (string | undefined)[] {
  return ["vessel", "voyage", "port_of_discharge"].map((key) => {
    const value = readText(bl.fields, key);
    return value === undefined ? undefined : compactRef(value);
  });
}

/** Two journeys differ when a part both B/Ls show differs; without a vessel on each, agreeing parts do not prove one journey. */
function compareJourneys(a: (string | undefined)[], b: (string | undefined)[]): "same" | "different" | "unknown" {
  if (a.some((part, i) => part !== undefined && b[i] !== undefined && part !== b[i])) return "different";
  return a[0] !== undefined && b[0] !== undefined ? "same" : "unknown";
}

function checkPartial(p: Presentation, bls: Doc[]): Finding[] {
  if (readText(p.credit!.fields, "partial_shipments") !== "not allowed") return [];
  const transports = groupCopies(bls, "bl_number").map((g) => g[0]!);
  if (transports.length < 2) return [];
  const journeys = transports.map(journeyOf);
  const verdicts = journeys.slice(1).map((j) => compareJourneys(journeys[0]!, j));
  const numbers = transports.map((d) => readText(d.fields, "bl_number") ?? d.id).join(", ");
  if (!verdicts.includes("different") && verdicts.includes("unknown")) {
    const dates = new Set(transports.map(shipmentDateOf));
    if (dates.size < 2) return [];
    return [report(PARTIAL_SHIPMENT, {
      documents: transports, fields: ["vessel", "shipped_on_board_date"], severity: "warning",
      message: `Several bills of lading (${numbers}) with different shipment dates while partial shipments are prohibited; confirm they cover one vessel and one journey.`,
    })];
  }
  if (!verdicts.includes("different")) return [];
  return [report(PARTIAL_SHIPMENT, {
    documents: transports, fields: ["vessel", "voyage", "port_of_discharge"], found: numbers,
    message: `Bills of lading ${numbers} evidence shipment on more than one vessel or journey: a partial shipment, which the credit prohibits.`,
  })];
}

/** A line that says the goods are transhipped somewhere, as opposed to liberty clauses (art. 20(d)) or repeated credit terms. */
const TRANSHIPMENT_LINE = /TRANS?SHIP|\bT\/S\b/i;
const NOT_AN_EVENT = /RESERVE|LIBERT|\bMAY\b|\bRIGHT\b|NOT\s+(?:ALLOWED|PERMITTED)|PROHIBITED|\bN\/?A\b|\bNIL\b|\bNONE\b/i;
const TRANSHIPMENT_EVENT = /TRANS?SHIP\w*\s*(?:AT|PORT|VIA|IN|TO)\b\s*:?\s*[A-Z]{3,}|PORT\s+OF\s+TRANS?SHIPMENT\s*:?\s*[A-Z]{3,}|\bT\/S\s+(?:AT|PORT|VIA)\b/i;

export function mentionsTranshipment(text: string): boolean {
  return text
    .split(/\n/)
    .some((line) => TRANSHIPMENT_LINE.test(line) && !NOT_AN_EVENT.test(line) && TRANSHIPMENT_EVENT.test(line));
}

function checkTranshipment(p: Presentation, bls: Doc[]): Finding[] {
  if (readText(p.credit!.fields, "transhipment") !== "not allowed") return [];
  return bls.flatMap((bl) => {
    if (!bl.text || !mentionsTranshipment(bl.text)) return [];
    if (readList(bl.fields, "container_numbers")) {
      return [report(TRANSHIPMENT, {
        documents: [bl], fields: ["container_numbers"], severity: "info",
        message: "Bill of lading indicates transhipment of goods shipped in containers: acceptable under art. 20(c)(ii) although the credit prohibits transhipment.",
      })];
    }
    return [report(TRANSHIPMENT, {
      documents: [bl], fields: [], expected: "no transhipment",
      message: "Bill of lading indicates transhipment, which the credit prohibits, and does not evidence shipment in containers.",
    })];
  });
}

export const SHIPMENT_RULES = [LATEST_SHIPMENT, SHIPMENT_PERIOD, PORT_OF_LOADING, PORT_OF_DISCHARGE, PARTIAL_SHIPMENT, TRANSHIPMENT];

export function checkShipment(p: Presentation): Finding[] {
  if (!p.credit) return [];
  const bls = docsOfType(p, "bill_of_lading");
  return [
    ...checkLatestDate(p, bls),
    ...checkPeriod(p, bls),
    ...checkPort(p, bls, PORT_OF_LOADING, "port_of_loading", "port of loading"),
    ...checkPort(p, bls, PORT_OF_DISCHARGE, "port_of_discharge", "port of discharge"),
    ...checkPartial(p, bls),
    ...checkTranshipment(p, bls),
  ];
}
