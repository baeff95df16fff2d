/**
 * Dates of the presentation: within the period after shipment (:48:, else 21
 * days, art. 14(c)), not after expiry (:31D:, art. 6(e)), no document dated after
 * presentation (art. 14(i)), pre-shipment events on or before shipment (ISBP 821 A12).
 */
import { amendedNote } from "../amendments";
import { addDays, daysBetween, readDate, readNumber } from "../fields";
import { amendmentDocs, shipmentOf, type Doc, type Presentation } from "../presentation";
import { readRequirements } from "../requirements";
import { report, type RuleSpec } from "../rule-kit";
import type { DocumentTypeId } from "../../schema";
import type { Finding } from "../types";

const PRESENTATION_PERIOD: RuleSpec = {
  id: "presentation.period",
  reference: "UCP 600 art. 14(c)",
  severity: "discrepancy",
  title: "Presented within the period after shipment (:48:, 21 days when absent)",
};
const PRESENTATION_EXPIRY: RuleSpec = {
  id: "presentation.expiry",
  reference: "UCP 600 art. 6(e), 14(c)",
  severity: "discrepancy",
  title: "Presented on or before the expiry date (:31D:)",
};
const DATED_AFTER_PRESENTATION: RuleSpec = {
  id: "documents.dated_after_presentation",
  reference: "UCP 600 art. 14(i)",
  severity: "discrepancy",
  title: "No document dated after the date of presentation",
};
const PRE_SHIPMENT_EVENT: RuleSpec = {
  id: "documents.pre_shipment_event",
  reference: "ISBP 821 A12",
  severity: "discrepancy",
  title: "Fumigation, treatment and inspection on or before the date of shipment",
};

/** Every date key a presented document may carry. */
const DATE_KEYS = [
  "date_of_issue", "invoice_date", "shipped_on_board_date", "date_of_weighing", "date_of_inspection",
  "treatment_date", "fumigation_date",
];

/** The event each certificate evidences, and how sure we are it must precede shipment. */
const EVENTS: { type: DocumentTypeId; key: string; what: string; unstated: "warning" | "info" }[] = [
  { type: "fumigation_certificate", key: "fumigation_date", what: "fumigation", unstated: "warning" },
  { type: "phytosanitary_certificate", key: "treatment_date", what: "treatment", unstated: "warning" },
  { type: "certificate_of_quality", key: "date_of_inspection", what: "inspection", unstated: "info" },
  { type: "certificate_of_weight", key: "date_of_weighing", what: "weighing", unstated: "info" },
];

function checkPeriod(p: Presentation): Finding[] {
  const shipment = shipmentOf(p);
  const credit = p.credit?.fields ?? {};
  const expiry = readDate(credit, "expiry_date");
  const findings: Finding[] = [];
  if (shipment) {
    const days = readNumber(credit, "presentation_period_days") ?? p.tolerances.presentationDays;
    const last = addDays(shipment.date, days);
    const note = amendedNote(p.credit, "presentation_period_days");
    if (p.presentationDate > last) {
      findings.push(report(PRESENTATION_PERIOD, {
        documents: [shipment.doc, ...(p.credit ? amendmentDocs(p.credit, "presentation_period_days") : [])], fields: ["shipped_on_board_date"],
        expected: `on or before ${last} (${days} days after shipment on ${shipment.date}${note})`, found: p.presentationDate,
        message: `Documents presented ${daysBetween(shipment.date, p.presentationDate)} days after shipment, later than the ${days} days the credit allows${note}.`,
      }));
    }
  }
  if (expiry && p.presentationDate > expiry) {
    const note = amendedNote(p.credit, "expiry_date");
    findings.push(report(PRESENTATION_EXPIRY, {
      documents: p.credit!.docs, fields: ["expiry_date"], expected: `on or before ${expiry}${note}`, found: p.presentationDate,
      message: `Presentation on ${p.presentationDate} is after the credit expired on ${expiry}${note}.`,
    }));
  }
  return findings;
}

function checkDatedAfter(p: Presentation): Finding[] {
  return p.presented.flatMap((doc) => {
    const late = DATE_KEYS.filter((k) => (readDate(doc.fields, k) ?? "") > p.presentationDate);
    if (!late.length) return [];
    const dates = late.map((k) => readDate(doc.fields, k)!).join(", ");
    return [report(DATED_AFTER_PRESENTATION, {
      documents: [doc], fields: late, expected: `on or before ${p.presentationDate}`, found: dates,
      message: `${doc.type} is dated ${dates}, after the date of presentation ${p.presentationDate}.`,
    })];
  });
}

/** Types the credit expressly wants evidenced before shipment ("PRE-SHIPMENT INSPECTION", "PRIOR TO LOADING"). */
function preShipmentTypes(p: Presentation): Set<DocumentTypeId> {
  const types = new Set<DocumentTypeId>();
  for (const r of readRequirements(p.credit?.fields ?? {})) if (r.preShipment) r.types.forEach((t) => types.add(t));
  return types;
}

function checkEvents(p: Presentation): Finding[] {
  const shipment = shipmentOf(p);
  if (!shipment) return [];
  const required = preShipmentTypes(p);
  return EVENTS.flatMap((event) =>
    p.presented.filter((d: Doc) => d.typeId === event.type).flatMap((doc) => {
      const date = readDate(doc.fields, event.key);
      if (!date || date <= shipment.date) return [];
      const demanded = required.has(event.type);
      return [report(PRE_SHIPMENT_EVENT, {
        documents: [doc, shipment.doc], fields: [event.key], expected: `on or before ${shipment.date}`, found: date,
        severity: demanded ? "discrepancy" : event.unstated,
        message: demanded
          ? `${doc.type} shows ${event.what} on ${date}, after shipment on ${shipment.date}, while the credit requires it before shipment.`
          : `${doc.type} shows ${event.what} on ${date}, after shipment on ${shipment.date}.`,
      })];
    }),
  );
}

export const DATE_RULES = [PRESENTATION_PERIOD, PRESENTATION_EXPIRY, DATED_AFTER_PRESENTATION, PRE_SHIPMENT_EVENT];

export function checkDates(p: Presentation): Finding[] {
  return [...checkPeriod(p), ...checkDatedAfter(p), ...checkEvents(p)];
}
