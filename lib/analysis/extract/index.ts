import { DOCUMENT_TYPES, type DocumentTypeId } from "../schema";
import type { Evidence, Page } from "../types";
import { ExtractionContext } from "./context";
import { extractBillOfLading } from "./types/bill-of-lading";
import { extractCertificateOfOrigin } from "./types/certificate-of-origin";
import { extractCertificateOfQuality } from "./types/certificate-of-quality";
import { extractCertificateOfWeight } from "./types/certificate-of-weight";
import { extractCommercialInvoice } from "./types/commercial-invoice";
import { extractContract } from "./types/contract";
import { extractDocumentInstruction } from "./types/document-instruction";
import { extractFumigationCertificate } from "./types/fumigation-certificate";
import { extractLetterOfCredit } from "./types/letter-of-credit";
import { extractPackingList } from "./types/packing-list";
import { extractPhytosanitaryCertificate } from "./types/phytosanitary-certificate";

export interface Extraction {
  /** Normalised values keyed by schema key; only keys the document carries. */
  values: Record<string, unknown>;
  /** Where each value was read, keyed like `values`. */
  evidence: Record<string, Evidence>;
}

const EXTRACTORS: Record<DocumentTypeId, ((ctx: ExtractionContext) => void) | undefined> = {
  bill_of_lading: extractBillOfLading,
  letter_of_credit: extractLetterOfCredit,
  document_instruction: extractDocumentInstruction,
  contract: extractContract,
  commercial_invoice: extractCommercialInvoice,
  packing_list: extractPackingList,
  certificate_of_origin: extractCertificateOfOrigin,
  certificate_of_weight: extractCertificateOfWeight,
  certificate_of_quality: extractCertificateOfQuality,
  phytosanitary_certificate: extractPhytosanitaryCertificate,
  fumigation_certificate: extractFumigationCertificate,
  other: undefined,
};

/** Reads every schema key of `type` that the pages carry. Pages are one document's pages, in order. */
export function extractFields(type: DocumentTypeId, pages: Page[]): Extraction {
  const extract = EXTRACTORS[type];
  if (!extract || pages.length === 0) return { values: {}, evidence: {} };
  const ctx = new ExtractionContext(pages);
  extract(ctx);
  return ctx.result(Object.keys(DOCUMENT_TYPES[type].fields));
}
