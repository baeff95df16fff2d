/** Every rule the examination applies, with its reference: for the API's documentation, the web app and the bench. */
import { BL_TERM_RULES, checkBlTerms } from "./rules/bl-terms";
import { FIGURE_RULES, checkFigures } from "./rules/consistency-figures";
import { REFERENCE_RULES, checkReferencesAndParties } from "./rules/consistency-references";
import { TRANSPORT_RULES, checkTransport } from "./rules/consistency-transport";
import { CREDIT_CONDITION_RULES, checkCreditConditions } from "./rules/credit-conditions";
import { CREDIT_PRESENCE_RULES, checkCreditPresence } from "./rules/credit-presence";
import { DATE_RULES, checkDates } from "./rules/dates";
import { DOCUMENTS_REQUIRED_RULES, checkDocumentsRequired } from "./rules/documents-required";
import { INVOICE_AMOUNT_RULES, checkInvoiceAmount } from "./rules/invoice-amount";
import { INVOICE_PARTY_RULES, checkInvoiceParties } from "./rules/invoice-parties";
import { READING_RULES, checkReadings } from "./rules/readings";
import { SHIPMENT_RULES, checkShipment } from "./rules/shipment";
import type { Presentation } from "./presentation";
import type { RuleSpec } from "./rule-kit";
import type { Finding } from "./types";

/** Rule families in the order a checker goes through a set: the credit, the invoice, transport, dates, documents, consistency. */
export const RULE_FAMILIES: { rules: RuleSpec[]; check: (p: Presentation) => Finding[] }[] = [
  { rules: CREDIT_PRESENCE_RULES, check: checkCreditPresence },
  { rules: INVOICE_AMOUNT_RULES, check: checkInvoiceAmount },
  { rules: INVOICE_PARTY_RULES, check: checkInvoiceParties },
  { rules: SHIPMENT_RULES, check: checkShipment },
  { rules: DATE_RULES, check: checkDates },
  { rules: DOCUMENTS_REQUIRED_RULES, check: checkDocumentsRequired },
  { rules: CREDIT_CONDITION_RULES, check: checkCreditConditions },
  { rules: BL_TERM_RULES, check: checkBlTerms },
  { rules: FIGURE_RULES, check: checkFigures },
  { rules: TRANSPORT_RULES, check: checkTransport },
  { rules: REFERENCE_RULES, check: checkReferencesAndParties },
  { rules: READING_RULES, check: checkReadings },
];

export const RULES: RuleSpec[] = RULE_FAMILIES.flatMap((f) => f.rules);

export type { RuleSpec };
