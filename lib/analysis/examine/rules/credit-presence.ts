/** Which credit the set is examined against (and as amended by what), said out loud when it is not obvious. */
import { readText } from "../fields";
import type { Doc, Presentation } from "../presentation";
import type { Amendment } from "../amendments";
import { report, type RuleSpec } from "../rule-kit";
import type { Finding } from "../types";

const CREDIT_PRESENT: RuleSpec = {
  id: "credit.present",
  reference: "UCP 600 art. 14(a)",
  severity: "info",
  title: "The set holds the credit it is examined against",
};

const CREDIT_AMENDED: RuleSpec = {
  id: "credit.amended",
  reference: "UCP 600 art. 10",
  severity: "info",
  title: "Amendments presented with the credit are applied in order; changes that could not be applied are named",
};

export const CREDIT_PRESENCE_RULES = [CREDIT_PRESENT, CREDIT_AMENDED];

/** Terms as a checker names them. */
const TERM_NAMES: Record<string, string> = {
  amount: "amount", currency: "currency", expiry_date: "expiry date", expiry_place: "place of expiry",
  tolerance_plus_pct: "amount tolerance", tolerance_minus_pct: "amount tolerance", latest_shipment_date: "latest date of shipment",
  port_of_loading: "port of loading", port_of_discharge: "port of discharge", place_of_receipt: "place of receipt",
  place_of_delivery: "place of delivery", partial_shipments: "partial shipments", transhipment: "transhipment",
  presentation_period_days: "presentation period", description_of_goods: "goods description",
  documents_required: "documents required", additional_conditions: "additional conditions",
};

function changedTerms(p: Presentation, amendment: Amendment<Doc>): string[] {
  const keys = [...p.credit!.origins].filter(([key, a]) => a === amendment && !key.includes("\u0000")).map(([key]) => key);
  if (p.credit!.shipmentPeriod?.origin === amendment) keys.push("shipment period");
  return [...new Set(keys.map((k) => TERM_NAMES[k] ?? k.replace(/_/g, " ")))];
}

function checkAmendments(p: Presentation): Finding[] {
  return p.credit!.amendments.map((a) => {
    const terms = changedTerms(p, a);
    const applied = terms.length ? `applied (${terms.join(", ")})` : "found no term to apply";
    const unapplied = a.unapplied.length ? `; not applied: ${a.unapplied.join("; ")}` : "";
    return report(CREDIT_AMENDED, {
      documents: [a.doc], fields: [], found: terms.join(", ") || undefined,
      message: `The documents were examined against the credit as amended: ${a.label} ${applied}${unapplied}.`,
    });
  });
}

export function checkCreditPresence(p: Presentation): Finding[] {
  if (!p.credit) {
    return [report(CREDIT_PRESENT, {
      documents: [], fields: [],
      message: "No letter of credit in the set: only the documents' consistency with each other was examined.",
    })];
  }
  const amendments = checkAmendments(p);
  if (!p.credit.others.length) return amendments;
  const chosen = readText(p.credit.fields, "lc_number") ?? "the first credit";
  const others = p.credit.others.map((d) => readText(d.fields, "lc_number") ?? d.id).join(", ");
  return [report(CREDIT_PRESENT, {
    documents: p.credit.others, fields: ["lc_number"], expected: chosen, found: others,
    message: `The set holds more than one credit (${others}); the documents were examined against credit ${chosen}.`,
  }), ...amendments];
}
