/**
 * Lots: one shipment is often certified in parts — a certificate of origin or
 * of weight per lot, per container group, per B/L. Such documents state a part
 * of the whole, and the parts together must make the whole (ISBP 821 A: data
 * need not be identical, only not conflicting). These helpers tell a lot
 * document from a conflicting one.
 */
import { readList, readText } from "./fields";
import type { DocumentTypeId } from "../schema";
import type { Doc } from "./presentation";
import { referenceKey } from "./similarity";

/**
 * The key holding a document's own number, per type: what its originals and
 * copies share and two lots do not. A number a document quotes from another
 * (the B/L number on a certificate of weight, the credit number, a "Ref No."
 * the exporter prints on every document of the shipment) is shared by all its
 * lots, so it is no identity.
 */
const OWN_NUMBER: Partial<Record<DocumentTypeId, string>> = {
  bill_of_lading: "bl_number",
  commercial_invoice: "invoice_number",
  packing_list: "packing_list_number",
  certificate_of_origin: "certificate_number",
  certificate_of_weight: "certificate_number",
  certificate_of_quality: "certificate_number",
  phytosanitary_certificate: "certificate_number",
  fumigation_certificate: "certificate_number",
  document_instruction: "reference_number",
  contract: "contract_number",
};

function identityOf(doc: Doc): string {
  const key = doc.typeId ? OWN_NUMBER[doc.typeId] : undefined;
  const value = key ? readText(doc.fields, key) : undefined;
  return value ? `${doc.typeId}:${referenceKey(value)}` : `doc:${doc.id}`;
}

/** Documents of one type grouped by identity: each group is one document, its originals and copies. */
export function distinctDocuments(docs: Doc[]): Doc[][] {
  const groups = new Map<string, Doc[]>();
  for (const doc of docs) groups.set(identityOf(doc), [...(groups.get(identityOf(doc)) ?? []), doc]);
  return [...groups.values()];
}

/** How a document says it covers a part: "LOT 1 OF 2", "LOT NO. 2/3", "SECOND LOT", "PART SHIPMENT". */
const LOT_WORDING = /\bLOT\s*(?:NO\.?|NUMBER|#)?\s*\d+\s*(?:OF|\/)\s*\d+\b|\b(?:FIRST|SECOND|THIRD|FOURTH|1ST|2ND|3RD|4TH)\s+LOT\b|\bPART(?:IAL)?\s+(?:SHIPMENT|LOT|QUANTITY|CONSIGNMENT)\b/i;

/** Lots of a shipment are simple parts of it: half, a third, a quarter. */
const LOT_PARTS = [2, 3, 4];

/**
 * Why `doc` looks like it covers one lot of the shipment the bills of lading
 * carry, or undefined: its own words, or a strict subset of their containers.
 */
export function lotHint(doc: Doc, bls: Doc[]): string | undefined {
  const wording = doc.text ? LOT_WORDING.exec(doc.text) : null;
  if (wording) return `the ${doc.type} says "${wording[0]}"`;
  const own = new Set((readList(doc.fields, "container_numbers") ?? []).map(referenceKey));
  const all = new Set(bls.flatMap((b) => readList(b.fields, "container_numbers") ?? []).map(referenceKey));
  if (own.size > 0 && own.size < all.size && [...own].every((c) => all.has(c))) {
    return `the ${doc.type} names ${own.size} of the ${all.size} containers on the bill of lading`;
  }
  return undefined;
}

/** "1/2" when `part` times a small whole number makes `whole` (by the rule's tolerance). */
export function simpleFraction(part: number, whole: number, agree: (a: number, b: number) => boolean): number | undefined {
  return part > 0 && part < whole ? LOT_PARTS.find((k) => agree(part * k, whole)) : undefined;
}

