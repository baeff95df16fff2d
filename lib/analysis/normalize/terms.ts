/** Freight terms and MT700 43P/43T shipment permissions → the schema's enum values. */

export type FreightTerms = "prepaid" | "collect";
export type Permission = "allowed" | "not allowed" | "conditional";

const COLLECT = /\bCOLLECT\b|PAYABLE AT DESTINATION|TO BE COLLECTED/i;
const PREPAID = /\bPRE-?\s?PAID\b|PAID AT ORIGIN|FREIGHT PAID/i;

/** "FREIGHT PREPAID" → prepaid, "FREIGHT COLLECT" → collect; undefined when neither is said. */
export function normalizeFreightTerms(text: string): FreightTerms | undefined {
  const prepaid = PREPAID.exec(text);
  const collect = COLLECT.exec(text);
  if (prepaid && collect) return prepaid.index < collect.index ? "prepaid" : "collect";
  if (prepaid) return "prepaid";
  return collect ? "collect" : undefined;
}

const NOT_ALLOWED = /\b(?:NOT\s+(?:ALLOWED|PERMITTED|ACCEPTABLE)|PROHIBITED|DISALLOWED|FORBIDDEN|NO\b)/i;
const CONDITIONAL = /\bCONDITIONAL\b|\bSUBJECT TO\b|\bONLY IF\b|\bPROVIDED\b/i;
const ALLOWED = /\b(?:ALLOWED|PERMITTED|ACCEPTABLE|YES)\b/i;

/** MT700 43P/43T wording → allowed | not allowed | conditional. */
export function normalizePermission(text: string): Permission | undefined {
  if (NOT_ALLOWED.test(text)) return "not allowed";
  if (CONDITIONAL.test(text)) return "conditional";
  return ALLOWED.test(text) ? "allowed" : undefined;
}
