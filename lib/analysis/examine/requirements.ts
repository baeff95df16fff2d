/**
 * Field :46A: read as a checker reads it: each numbered item names a document
 * (the first document name in the item decides: "CERTIFICATE OF ORIGIN ...
 * STATING ... INVOICE" asks for a certificate of origin) and may set its
 * originals, consignee, notify party, freight marking or a pre-shipment event.
 */
import type { DocumentTypeId } from "../schema";
import { readList, type Fields } from "./fields";

export interface Requirement {
  /** 1-based position in :46A:. */
  index: number;
  text: string;
  /** Presented types that satisfy it; `other` for insurance, drafts, beneficiary's certificates and the like. */
  types: DocumentTypeId[];
  /** "FULL SET 3/3": the number of originals the transport document must show as issued. */
  originalsIssued?: number;
  consignee?: string;
  /** A party name, or "APPLICANT". */
  notify?: string;
  freight?: "prepaid" | "collect";
  preShipment: boolean;
}

const DOCUMENT_NAMES: [DocumentTypeId[], RegExp][] = [
  [["certificate_of_weight"], /CERTIFICATES?\s+OF\s+WEIGHT|WEIGHT\s+(?:CERTIFICATE|NOTE|LIST|SURVEY)|DRAFT\s+SURVEY/],
  [["certificate_of_quality"], /CERTIFICATES?\s+OF\s+(?:QUALITY|ANALYSIS)|(?:QUALITY|ANALYSIS)\s+CERTIFICATE/],
  [["certificate_of_quality", "certificate_of_weight"], /INSPECTION\s+CERTIFICATE|CERTIFICATE\s+OF\s+INSPECTION/],
  [["commercial_invoice"], /\bINVOICES?\b/],
  [["bill_of_lading"], /BILLS?\s+OF\s+LADING|\bB\/L\b|SEA\s?WAYBILL|\bBILL\s+OF\s+LADING\b/],
  [["packing_list"], /PACKING\s+(?:LIST|SPECIFICATION)|WEIGHT\s+AND\s+PACKING/],
  [["certificate_of_origin"], /CERTIFICATES?\s+OF\s+ORIGIN|ORIGIN\s+CERTIFICATE|\bGSP\b|\bFORM\s+A\b|\bEUR\.?\s?1\b/],
  [["phytosanitary_certificate"], /PHYTO/],
  [["fumigation_certificate"], /FUMIGATION/],
  [["other"], /INSURANCE|\bDRAFTS?\b|BILLS?\s+OF\s+EXCHANGE|BENEFICIARY(?:'|’)?S?\s+CERTIFICATE|CERTIFICATE\s+(?:FROM|ISSUED\s+BY|OF)\s+THE\s+(?:SHIP|CARRIER|VESSEL|MASTER)|VESSEL\s+CERTIFICATE|COURIER|HEALTH\s+CERTIFICATE|SHIPMENT\s+ADVICE/],
];

/** Numbered or "+"-led items inside one string: "1. INVOICE ... 2. PACKING LIST ...". */
const ITEM_START = /(?:^|\s)(?:\d{1,2}[.)]|\+)\s+(?=[A-Z])/g;
const PARTY_END = String.raw`(?=\s*(?:,\s*)?(?:MARKED|NOTIFY|SHOWING|INDICATING|QUOTING|STATING|AND\s+MARKED|EVIDENCING)\b|\.?\s*$|;)`;
const CONSIGNEE = new RegExp(String.raw`(?:MADE\s+OUT\s+TO\s+(?:THE\s+)?ORDER\s+OF|CONSIGNED\s+TO(?:\s+(?:THE\s+)?ORDER\s+OF)?)\s+(.+?)${PARTY_END}`);
const NOTIFY = new RegExp(String.raw`NOTIFY(?:ING)?(?:\s+PARTY)?\s*:?\s+(?:THE\s+)?(.+?)${PARTY_END}`);
const ORIGINALS = /\b(\d)\s*\/\s*(\d)\b/;
const PRE_SHIPMENT = /PRE-?\s?SHIPMENT|(?:PRIOR\s+TO|BEFORE)\s+(?:SHIPMENT|LOADING)/;

function splitItems(entries: string[]): string[] {
  return entries.flatMap((entry) => entry.split(ITEM_START).map((s) => s.replace(/\s+/g, " ").trim()).filter((s) => s.length > 3));
}

function typesOf(text: string): DocumentTypeId[] {
  let best: { at: number; types: DocumentTypeId[] } | undefined;
  for (const [types, pattern] of DOCUMENT_NAMES) {
    const m = pattern.exec(text);
    if (m && (!best || m.index < best.at)) best = { at: m.index, types };
  }
  return best?.types ?? ["other"];
}

export function readRequirement(text: string, index: number): Requirement {
  const upper = text.toUpperCase();
  const types = typesOf(upper);
  const requirement: Requirement = { index, text, types, preShipment: PRE_SHIPMENT.test(upper) };
  if (types.includes("bill_of_lading")) {
    const originals = ORIGINALS.exec(upper);
    if (originals) requirement.originalsIssued = Number(originals[2]);
    const consignee = CONSIGNEE.exec(upper)?.[1]?.trim();
    if (consignee) requirement.consignee = consignee;
    const notify = NOTIFY.exec(upper)?.[1]?.trim();
    if (notify) requirement.notify = /^APPLICANT\b/.test(notify) ? "APPLICANT" : notify;
    if (/FREIGHT\s+PRE-?\s?PAID/.test(upper)) requirement.freight = "prepaid";
    else if (/FREIGHT\s+COLLECT/.test(upper)) requirement.freight = "collect";
  }
  return requirement;
}

/** Every item of the credit's :46A:, in order. */
export function readRequirements(credit: Fields): Requirement[] {
  return splitItems(readList(credit, "documents_required") ?? []).map((text, i) => readRequirement(text, i + 1));
}

/** The credit's :47A: conditions, one item each. */
export function readConditions(credit: Fields): string[] {
  return splitItems(readList(credit, "additional_conditions") ?? []).map((c) => c.toUpperCase());
}
