/**
 * Every document :46A: calls for is presented, the B/L as :46A: words it
 * (full set, consignee, notify party). "Other" covers insurance documents,
 * drafts and beneficiary's certificates alike, so those are matched loosely.
 */
import { labelOf } from "../../schema";
import { readNumber, readText } from "../fields";
import { readParty, sameParty } from "../names";
import { docsOfType, notingAmendment, type Doc, type Presentation } from "../presentation";
import { readRequirements, type Requirement } from "../requirements";
import { report, type RuleSpec } from "../rule-kit";
import type { Finding } from "../types";

const REQUIRED_PRESENT: RuleSpec = {
  id: "documents.required_present",
  reference: "UCP 600 art. 14(a), 15",
  severity: "discrepancy",
  title: "Every document required by :46A: is presented",
};
const BL_ORIGINALS: RuleSpec = {
  id: "bl.full_set",
  reference: "UCP 600 art. 20(a)(iv)",
  severity: "discrepancy",
  title: "B/L shows the number of originals the credit calls for",
};
const BL_CONSIGNEE: RuleSpec = {
  id: "bl.consignee_as_credit",
  reference: "UCP 600 art. 14(a); ISBP 821 E15",
  severity: "discrepancy",
  title: "B/L consigned as :46A: requires",
};
const BL_NOTIFY: RuleSpec = {
  id: "bl.notify_party_as_credit",
  reference: "UCP 600 art. 14(a); ISBP 821 E16",
  severity: "discrepancy",
  title: "B/L notify party as :46A: requires",
};

/** Words an "Other" document's text carries for each kind of "Other" requirement. */
const OTHER_KINDS: [RegExp, RegExp][] = [
  [/INSURANCE/, /INSURANCE|INSURED|POLICY/],
  [/DRAFT|BILLS? OF EXCHANGE/, /BILL OF EXCHANGE|EXCHANGE FOR|\bDRAFT\b|PAY TO THE ORDER/],
  [/BENEFICIARY/, /BENEFICIARY|WE (?:HEREBY )?CERTIFY/],
  [/SHIP|VESSEL|MASTER|CARRIER/, /VESSEL|MASTER|SHIP|CARRIER/],
  [/COURIER/, /COURIER|AIRWAY ?BILL|TRACKING|DHL|FEDEX/],
];

function kindOf(requirement: Requirement): RegExp | undefined {
  const upper = requirement.text.toUpperCase();
  return OTHER_KINDS.find(([asked]) => asked.test(upper))?.[1];
}

function checkOthers(p: Presentation, wanted: Requirement[]): Finding[] {
  const pool = docsOfType(p, "other");
  const used = new Set<Doc>();
  const unmatched: Requirement[] = [];
  for (const r of wanted) {
    const kind = kindOf(r);
    const hit = pool.find((d) => !used.has(d) && d.text !== undefined && kind !== undefined && kind.test(d.text.toUpperCase()));
    if (hit) used.add(hit);
    else unmatched.push(r);
  }
  return unmatched.flatMap((r) => {
    const spare = pool.find((d) => !used.has(d));
    if (spare) used.add(spare);
    return notingAmendment(p.credit!, "documents_required", r.text, [report(REQUIRED_PRESENT, {
      documents: spare ? [spare] : [], fields: [], expected: r.text, severity: spare ? "info" : "warning",
      message: spare
        ? `Could not confirm that the credit's item ${r.index} ("${r.text.slice(0, 60)}") is among the other documents presented.`
        : `The credit's item ${r.index} ("${r.text.slice(0, 60)}") does not appear to be presented.`,
    })]);
  });
}

function checkPresence(p: Presentation, requirements: Requirement[]): Finding[] {
  const typed = requirements.filter((r) => !r.types.includes("other"));
  const missing = typed.filter((r) => !docsOfType(p, ...r.types).length);
  return [
    ...missing.flatMap((r) => notingAmendment(p.credit!, "documents_required", r.text, [report(REQUIRED_PRESENT, {
      documents: [], fields: [], expected: r.text, found: "not presented",
      message: `The credit requires ${r.types.map((t) => labelOf(t)).join(" or ")} (46A item ${r.index}); none was presented.`,
    })])),
    ...checkOthers(p, requirements.filter((r) => r.types.includes("other"))),
  ];
}

function checkBillOfLading(p: Presentation, r: Requirement): Finding[] {
  const credit = p.credit!.fields;
  const similarity = p.tolerances.nameSimilarity;
  return docsOfType(p, "bill_of_lading").flatMap((bl) => {
    const findings: Finding[] = [];
    const originals = readNumber(bl.fields, "number_of_originals");
    if (r.originalsIssued !== undefined && originals !== undefined && originals !== r.originalsIssued) {
      findings.push(report(BL_ORIGINALS, {
        documents: [bl], fields: ["number_of_originals"], expected: String(r.originalsIssued), found: String(originals),
        message: `Bill of lading shows ${originals} original(s) issued; the credit calls for a full set of ${r.originalsIssued}.`,
      }));
    }
    const consignee = readParty(bl.fields, "consignee");
    if (r.consignee && consignee && !sameParty(consignee, r.consignee, similarity)) {
      findings.push(report(BL_CONSIGNEE, {
        documents: [bl], fields: ["consignee"], expected: `to the order of ${r.consignee}`, found: consignee,
        message: `Bill of lading is consigned to ${consignee}, not to the order of ${r.consignee} as the credit requires.`,
      }));
    }
    const notify = r.notify === "APPLICANT" ? readText(credit, "applicant") : r.notify;
    const shown = readParty(bl.fields, "notify_party");
    if (notify && shown && !sameParty(shown, notify, similarity)) {
      findings.push(report(BL_NOTIFY, {
        documents: [bl], fields: ["notify_party"], expected: notify, found: shown,
        message: `Bill of lading names ${shown} as notify party instead of ${notify}.`,
      }));
    }
    return findings;
  });
}

export const DOCUMENTS_REQUIRED_RULES = [REQUIRED_PRESENT, BL_ORIGINALS, BL_CONSIGNEE, BL_NOTIFY];

export function checkDocumentsRequired(p: Presentation): Finding[] {
  if (!p.credit) return [];
  const requirements = readRequirements(p.credit.fields);
  const blTerms = requirements.find((r) => r.types.includes("bill_of_lading"));
  return [...checkPresence(p, requirements), ...(blTerms ? checkBillOfLading(p, blTerms) : [])];
}
