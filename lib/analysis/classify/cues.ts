import type { DocumentTypeId } from "../schema";

/**
 * What each kind of page carries, as data. A page class is a document type or
 * one of the kinds of page that the schema files under `Other` (insurance,
 * drafts, courier receipts…): those are scored like types so that, say, an
 * insurance certificate's title beats the B/L and invoice numbers it quotes.
 *
 * Phrases are matched on upper-cased text with punctuation folded to spaces
 * (see normalizeText), so "B/L No." is written "B L NO".
 */
type OtherKind =
  | "insurance"
  | "draft"
  | "courier_receipt"
  | "beneficiary_certificate"
  | "vessel_certificate"
  | "transport_notice"
  | "official_form"
  | "separator"
  | "correspondence";

export type PageClass = Exclude<DocumentTypeId, "other"> | OtherKind;

const OTHER_KINDS: readonly OtherKind[] = [
  "insurance",
  "draft",
  "courier_receipt",
  "beneficiary_certificate",
  "vessel_certificate",
  "transport_notice",
  "official_form",
  "separator",
  "correspondence",
];

/** The document type a page class reports. */
export function typeOfClass(cls: PageClass): DocumentTypeId {
  return (OTHER_KINDS as readonly string[]).includes(cls) ? "other" : (cls as DocumentTypeId);
}

/**
 * Titles: printed at the head of the document, usually large. The longest matching
 * title on a line wins. Common French, Spanish, German and Italian titles are
 * included because bilingual forms often print only those in large type.
 */
export const TITLES: Record<PageClass, readonly string[]> = {
  bill_of_lading: [
    "BILL OF LADING",
    "BILL OF LADING FOR OCEAN TRANSPORT",
    "OCEAN BILL OF LADING",
    "MULTIMODAL TRANSPORT BILL OF LADING",
    "COMBINED TRANSPORT BILL OF LADING",
    "BILL OF LADING FOR COMBINED TRANSPORT OR PORT TO PORT SHIPMENT",
    "CHARTER PARTY BILL OF LADING",
    "SEA WAYBILL",
    "NON NEGOTIABLE SEA WAYBILL",
    "BILL OF LANDING",
    "CONNAISSEMENT",
    "CONOCIMIENTO DE EMBARQUE",
    "KONNOSSEMENT",
    "POLIZZA DI CARICO",
  ],
  letter_of_credit: [
    "LETTER OF CREDIT",
    "DOCUMENTARY CREDIT",
    "IRREVOCABLE DOCUMENTARY CREDIT",
    "ISSUE OF A DOCUMENTARY CREDIT",
    "ISSUE OF DOCUMENTARY CREDIT",
    "ADVICE OF DOCUMENTARY CREDIT",
    "ADVICE OF A DOCUMENTARY CREDIT",
    "AMENDMENT TO A DOCUMENTARY CREDIT",
    "AMENDMENT TO DOCUMENTARY CREDIT",
    "SWIFT MT700",
    "MT700",
    "MT 700",
    "MT701",
    "MT707",
  ],
  document_instruction: [
    "SHIPPING INSTRUCTIONS",
    "SHIPPING INSTRUCTION",
    "DOCUMENTARY INSTRUCTIONS",
    "DOCUMENTARY INSTRUCTION",
    "DOCUMENT INSTRUCTIONS",
    "DOCUMENTS INSTRUCTION",
    "DOCUMENTATION INSTRUCTIONS",
    "COVERING SCHEDULE",
    "COVERING LETTER",
    "NEGOTIATION LETTER",
    "PRESENTATION LETTER",
    "LODGEMENT SCHEDULE",
    "COLLECTION INSTRUCTION",
    "COLLECTION INSTRUCTIONS",
    "DOCUMENTARY COLLECTION",
    "BILL LODGEMENT FORM",
    "LETTER OF INSTRUCTION",
    "REMITTANCE LETTER",
  ],
  contract: [
    "SALES CONTRACT",
    "SALE CONTRACT",
    "PURCHASE CONTRACT",
    "SALES AND PURCHASE CONTRACT",
    "SALES CONFIRMATION",
    "SALE AND PURCHASE AGREEMENT",
    "SALES AGREEMENT",
    "PURCHASE AGREEMENT",
    "CONTRACT",
    "PURCHASE ORDER",
  ],
  commercial_invoice: [
    "COMMERCIAL INVOICE",
    "INVOICE",
    "PROFORMA INVOICE",
    "PRO FORMA INVOICE",
    "TAX INVOICE",
    "FINAL INVOICE",
    "PROVISIONAL INVOICE",
    "CUSTOMS INVOICE",
    "FACTURA COMERCIAL",
    "FACTURA",
    "FACTURE",
    "FACTURE COMMERCIALE",
    "HANDELSRECHNUNG",
    "RECHNUNG",
    "FATTURA",
    "FATTURA COMMERCIALE",
  ],
  packing_list: [
    "PACKING LIST",
    "PACKING AND WEIGHT LIST",
    "PACKING WEIGHT LIST",
    "WEIGHT AND PACKING LIST",
    "PACKING SPECIFICATION",
    "PACKING LIST AND WEIGHT LIST",
    "DETAILED PACKING LIST",
    "PACKING NOTE",
    "WEIGHT LIST",
    "PACKING AND WEIGHT SPECIFICATION",
    "LISTA DE EMPAQUE",
    "LISTE DE COLISAGE",
    "PACKLISTE",
    "LISTA DI IMBALLAGGIO",
  ],
  certificate_of_origin: [
    "CERTIFICATE OF ORIGIN",
    "ORIGIN CERTIFICATE",
    "CERTIFICATE OF ORIGIN FORM A",
    "GENERALISED SYSTEM OF PREFERENCES",
    "MOVEMENT CERTIFICATE",
    "EUR 1",
    "EUR 1 MOVEMENT CERTIFICATE",
    "CERTIFICADO DE ORIGEN",
    "CERTIFICAT D ORIGINE",
    "URSPRUNGSZEUGNIS",
    "CERTIFICATO DI ORIGINE",
  ],
  certificate_of_weight: [
    "CERTIFICATE OF WEIGHT",
    "WEIGHT CERTIFICATE",
    "CERTIFICATE OF WEIGHT AND MEASUREMENT",
    "WEIGHT NOTE",
    "WEIGHT AND MEASUREMENT CERTIFICATE",
    "DRAFT SURVEY REPORT",
    "WEIGHBRIDGE CERTIFICATE",
    "CERTIFICATE OF WEIGHT AND MEASURE",
  ],
  certificate_of_quality: [
    "CERTIFICATE OF QUALITY",
    "QUALITY CERTIFICATE",
    "CERTIFICATE OF ANALYSIS",
    "ANALYSIS CERTIFICATE",
    "CERTIFICATE OF INSPECTION",
    "INSPECTION CERTIFICATE",
    "CERTIFICATE OF QUALITY AND QUANTITY",
    "QUALITY AND QUANTITY CERTIFICATE",
    "REPORT OF ANALYSIS",
    "TEST REPORT",
    "INSPECTION REPORT",
    "ANALYSIS REPORT",
  ],
  phytosanitary_certificate: [
    "PHYTOSANITARY CERTIFICATE",
    "PHYTOSANITARY CERTIFICATE FOR RE EXPORT",
    "PLANT HEALTH CERTIFICATE",
    "CERTIFICADO FITOSANITARIO",
    "CERTIFICAT PHYTOSANITAIRE",
    "PFLANZENGESUNDHEITSZEUGNIS",
  ],
  fumigation_certificate: [
    "FUMIGATION CERTIFICATE",
    "CERTIFICATE OF FUMIGATION",
    "FUMIGATION TREATMENT CERTIFICATE",
    "FUMIGATION RECORD",
    "FUMIGATION REPORT",
  ],
  insurance: [
    "INSURANCE CERTIFICATE",
    "CERTIFICATE OF INSURANCE",
    "MARINE INSURANCE CERTIFICATE",
    "MARINE CARGO INSURANCE CERTIFICATE",
    "INSURANCE POLICY",
    "MARINE INSURANCE POLICY",
    "MARINE CARGO INSURANCE POLICY",
    "CARGO INSURANCE CERTIFICATE",
    "OPEN COVER",
  ],
  draft: ["BILL OF EXCHANGE", "DRAFT", "SIGHT DRAFT", "TIME DRAFT"],
  courier_receipt: [
    "COURIER RECEIPT",
    "EXPRESS COURIER",
    "COURIER WAYBILL",
    "AIR WAYBILL",
    "AIRWAY BILL",
    "SENDER S RECEIPT",
    "CONSIGNMENT NOTE",
    "TRACK AND TRACE",
    "SHIPMENT TRACKING",
    "PROOF OF DELIVERY",
    "TRACKING DETAILS",
  ],
  beneficiary_certificate: [
    "BENEFICIARY CERTIFICATE",
    "BENEFICIARY S CERTIFICATE",
    "BENEFICIARYS CERTIFICATE",
    "BENEFICIARY STATEMENT",
    "BENEFICIARY DECLARATION",
  ],
  vessel_certificate: [
    "VESSEL CERTIFICATE",
    "SHIPPING COMPANY CERTIFICATE",
    "CARRIER CERTIFICATE",
    "CARRIER S CERTIFICATE",
    "CERTIFICATE OF VESSEL",
    "VESSEL AGE CERTIFICATE",
    "CLASS CERTIFICATE",
    "CLASSIFICATION CERTIFICATE",
  ],
  // A carrier's or forwarder's notices about a shipment: not the transport document itself.
  transport_notice: [
    "ARRIVAL NOTICE",
    "NOTICE OF ARRIVAL",
    "CARGO ARRIVAL NOTICE",
    "ARRIVAL NOTIFICATION",
    "DELIVERY ORDER",
    "BOOKING CONFIRMATION",
    "BOOKING NOTE",
    "SHIPPING ADVICE",
    "SHIPMENT ADVICE",
    "SHIPPING NOTICE",
    "PRE ALERT",
    "FREIGHT INVOICE",
    "DOCK RECEIPT",
    "MATE S RECEIPT",
  ],
  // Declarations, permits and health certificates that authorities issue: filed under Other.
  official_form: [
    "EXPORT DECLARATION",
    "CUSTOMS DECLARATION",
    "SHIPPER S EXPORT DECLARATION",
    "SINGLE ADMINISTRATIVE DOCUMENT",
    "SHIPPING BILL",
    "DANGEROUS GOODS DECLARATION",
    "IMPORT PERMIT",
    "IMPORT LICENCE",
    "IMPORT LICENSE",
    "EXPORT PERMIT",
    "EXPORT LICENCE",
    "EXPORT LICENSE",
    "HEALTH CERTIFICATE",
    "VETERINARY CERTIFICATE",
    "SANITARY CERTIFICATE",
    "HALAL CERTIFICATE",
    "CERTIFICATE OF CONFORMITY",
    "CONFORMITY CERTIFICATE",
    "CERTIFICATE OF FREE SALE",
    "FREE SALE CERTIFICATE",
    "NON RADIATION CERTIFICATE",
    "RADIATION CERTIFICATE",
  ],
  correspondence: [],
  separator: ["ADDITIONAL COPY OF DOCUMENTS", "COPY OF DOCUMENTS", "SEPARATOR SHEET", "FOR ISSUING BANK FILE", "NON NEGOTIABLE DOCUMENTS"],
};
