/** Which credit the set is examined against, said out loud when it is not obvious. */
import { readText } from "../fields";
import type { Presentation } from "../presentation";
import { report, type RuleSpec } from "../rule-kit";
import type { Finding } from "../types";

export const CREDIT_PRESENT: RuleSpec = {
  id: "credit.present",
  reference: "UCP 600 art. 14(a)",
  severity: "info",
  title: "The set holds the credit it is examined against",
};

export const CREDIT_PRESENCE_RULES = [CREDIT_PRESENT];

export function checkCreditPresence(p: Presentation): Finding[] {
  if (!p.credit) {
    return [report(CREDIT_PRESENT, {
      documents: [], fields: [],
      message: "No letter of credit in the set: only the documents' consistency with each other was examined.",
    })];
  }
  if (!p.credit.others.length) return [];
  const chosen = readText(p.credit.fields, "lc_number") ?? "the first credit";
  const others = p.credit.others.map((d) => readText(d.fields, "lc_number") ?? d.id).join(", ");
  return [report(CREDIT_PRESENT, {
    documents: p.credit.others, fields: ["lc_number"], expected: chosen, found: others,
    message: `The set holds more than one credit (${others}); the documents were examined against credit ${chosen}.`,
  })];
}
