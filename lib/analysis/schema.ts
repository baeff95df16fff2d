/**
 * The analysis result contract: document type labels and, per type, the keys
 * that `extracted` may carry with the kind of their normalised value.
 * Values are normalised: dates YYYY-MM-DD, amounts and weights as numbers,
 * weights in kilograms (`_kg`), volumes in cubic metres (`_cbm`), currencies as
 * ISO 4217 codes, countries as their English short name; party fields hold the
 * name only, with the address under `<party>_address`. A key whose value is not
 * in the document is left out, never guessed.
 */

export type FieldKind =
  | "string"
  | "date"
  | "number"
  | "string[]"
  | { enum: readonly string[] }
  | { objects: readonly string[] };

const S = "string" as const;
const D = "date" as const;
const N = "number" as const;
const L = "string[]" as const;
const oneOf = (...values: string[]) => ({ enum: values }) as const;
const objectsOf = (...keys: string[]) => ({ objects: keys }) as const;

export const DOCUMENT_TYPES = {
  bill_of_lading: {
    label: "Bill of Lading",
    describes:
      "Carrier's receipt and title document for goods shipped by sea (ocean, multimodal or charter-party B/L, sea waybill); its reverse side of terms belongs to it.",
    fields: {
      bl_number: S,
      shipper: S,
      shipper_address: S,
      consignee: S,
      consignee_address: S,
      notify_party: S,
      carrier: S,
      vessel: S,
      voyage: S,
      port_of_loading: S,
      port_of_discharge: S,
      place_of_receipt: S,
      place_of_delivery: S,
      container_numbers: L,
      seal_numbers: L,
      number_of_packages: N,
      package_type: S,
      description_of_goods: S,
      hs_codes: L,
      gross_weight_kg: N,
      net_weight_kg: N,
      measurement_cbm: N,
      freight_terms: oneOf("prepaid", "collect"),
      shipped_on_board_date: D,
      place_of_issue: S,
      date_of_issue: D,
      number_of_originals: N,
      lc_number: S,
      booking_number: S,
    },
  },
  letter_of_credit: {
    label: "Letter of Credit",
    describes:
      "The documentary credit itself: a SWIFT MT700 (with MT701 continuations, MT707 amendments) or a bank's letter issuing or advising the credit.",
    fields: {
      lc_number: S,
      form_of_credit: S,
      date_of_issue: D,
      applicable_rules: S,
      expiry_date: D,
      expiry_place: S,
      applicant: S,
      applicant_address: S,
      beneficiary: S,
      beneficiary_address: S,
      issuing_bank: S,
      advising_bank: S,
      currency: S,
      amount: N,
      tolerance_plus_pct: N,
      tolerance_minus_pct: N,
      available_with: S,
      available_by: S,
      partial_shipments: oneOf("allowed", "not allowed", "conditional"),
      transhipment: oneOf("allowed", "not allowed", "conditional"),
      place_of_receipt: S,
      port_of_loading: S,
      port_of_discharge: S,
      place_of_delivery: S,
      latest_shipment_date: D,
      description_of_goods: S,
      incoterms: S,
      documents_required: L,
      additional_conditions: L,
      presentation_period_days: N,
      confirmation_instructions: S,
    },
  },
  document_instruction: {
    label: "Document Instruction",
    describes:
      "Instructions about the documents of a shipment: a buyer's or bank's documentary/shipping instructions listing the required documents and their wording, or the presenter's covering letter / bank covering schedule that lists the enclosed documents and tells the receiving bank what to do with them (presentation, lodgement or collection instruction).",
    fields: {
      reference_number: S,
      date_of_issue: D,
      lc_number: S,
      contract_number: S,
      shipper: S,
      consignee: S,
      notify_party: S,
      port_of_loading: S,
      port_of_discharge: S,
      description_of_goods: S,
      documents_required: L,
      marks_and_numbers: S,
    },
  },
  contract: {
    label: "Contract",
    describes:
      "The sales contract (or purchase contract / sales confirmation) between seller and buyer: goods, quantity and tolerance, price, Incoterm, shipment period, payment terms.",
    fields: {
      contract_number: S,
      date_of_issue: D,
      seller: S,
      seller_address: S,
      buyer: S,
      buyer_address: S,
      description_of_goods: S,
      quantity: N,
      quantity_unit: S,
      unit_price: N,
      currency: S,
      total_amount: N,
      incoterms: S,
      port_of_loading: S,
      port_of_discharge: S,
      latest_shipment_date: D,
      payment_terms: S,
      tolerance_pct: N,
    },
  },
  commercial_invoice: {
    label: "Commercial Invoice",
    describes:
      "The seller's invoice for the goods: provisional or final, original or copy.",
    fields: {
      invoice_number: S,
      invoice_date: D,
      seller: S,
      seller_address: S,
      buyer: S,
      buyer_address: S,
      consignee: S,
      currency: S,
      total_amount: N,
      incoterms: S,
      port_of_loading: S,
      port_of_discharge: S,
      vessel: S,
      bl_number: S,
      lc_number: S,
      contract_number: S,
      description_of_goods: S,
      quantity: N,
      quantity_unit: S,
      unit_price: N,
      gross_weight_kg: N,
      net_weight_kg: N,
      number_of_packages: N,
      country_of_origin: S,
      hs_codes: L,
      line_items: objectsOf("description", "quantity", "unit", "unit_price", "amount"),
    },
  },
  packing_list: {
    label: "Packing List",
    describes:
      "The list of packages and their contents and weights (also weight and packing list, packing specification).",
    fields: {
      packing_list_number: S,
      date_of_issue: D,
      invoice_number: S,
      seller: S,
      buyer: S,
      consignee: S,
      vessel: S,
      port_of_loading: S,
      port_of_discharge: S,
      container_numbers: L,
      number_of_packages: N,
      package_type: S,
      gross_weight_kg: N,
      net_weight_kg: N,
      measurement_cbm: N,
      description_of_goods: S,
      marks_and_numbers: S,
    },
  },
  certificate_of_origin: {
    label: "Certificate of Origin",
    describes:
      "A certificate stating the country of origin of the goods, issued by a chamber of commerce or an authority (non-preferential, Form A, EUR.1 and similar).",
    fields: {
      certificate_number: S,
      date_of_issue: D,
      exporter: S,
      exporter_address: S,
      consignee: S,
      country_of_origin: S,
      destination_country: S,
      issuing_authority: S,
      vessel: S,
      port_of_loading: S,
      port_of_discharge: S,
      description_of_goods: S,
      hs_codes: L,
      number_of_packages: N,
      gross_weight_kg: N,
      invoice_number: S,
    },
  },
  certificate_of_weight: {
    label: "Certificate of Weight",
    describes:
      "A certificate of the weight of the goods, by a surveyor or weighbridge (weight certificate, weight note, draft survey report).",
    fields: {
      certificate_number: S,
      date_of_issue: D,
      issuer: S,
      shipper: S,
      consignee: S,
      vessel: S,
      bl_number: S,
      port_of_loading: S,
      port_of_discharge: S,
      description_of_goods: S,
      container_numbers: L,
      number_of_packages: N,
      gross_weight_kg: N,
      net_weight_kg: N,
      tare_weight_kg: N,
      date_of_weighing: D,
    },
  },
  certificate_of_quality: {
    label: "Certificate of Quality",
    describes:
      "A certificate of the quality or analysis of the goods, by a surveyor or laboratory (certificate of analysis, quality certificate, inspection certificate of quality).",
    fields: {
      certificate_number: S,
      date_of_issue: D,
      issuer: S,
      shipper: S,
      consignee: S,
      vessel: S,
      bl_number: S,
      port_of_loading: S,
      description_of_goods: S,
      container_numbers: L,
      quality_parameters: objectsOf("name", "value", "unit"),
      date_of_inspection: D,
    },
  },
  phytosanitary_certificate: {
    label: "Phytosanitary Certificate",
    describes:
      "A plant-health certificate issued by the exporting country's national plant protection organisation (IPPC / ISPM 12 model).",
    fields: {
      certificate_number: S,
      date_of_issue: D,
      issuing_authority: S,
      exporter: S,
      exporter_address: S,
      consignee: S,
      consignee_address: S,
      place_of_origin: S,
      country_of_origin: S,
      destination_country: S,
      means_of_conveyance: S,
      point_of_entry: S,
      description_of_goods: S,
      botanical_name: S,
      quantity_declared: S,
      distinguishing_marks: S,
      treatment: S,
      treatment_date: D,
      container_numbers: L,
    },
  },
  fumigation_certificate: {
    label: "Fumigation Certificate",
    describes:
      "A certificate that the goods or containers were fumigated (methyl bromide, phosphine): fumigant, dosage, exposure, date and place.",
    fields: {
      certificate_number: S,
      date_of_issue: D,
      fumigation_date: D,
      fumigation_place: S,
      fumigant: S,
      dosage: S,
      duration_hours: N,
      temperature_c: N,
      exporter: S,
      consignee: S,
      description_of_goods: S,
      container_numbers: L,
      vessel: S,
      port_of_loading: S,
      port_of_discharge: S,
      number_of_packages: N,
    },
  },
  other: {
    label: "Other",
    describes:
      "Any page of no recognised type: insurance certificates, bills of exchange (drafts), courier receipts, beneficiary certificates, vessel certificates, separator sheets.",
    fields: {},
  },
} as const satisfies Record<string, { label: string; describes: string; fields: Record<string, FieldKind> }>;

export type DocumentTypeId = keyof typeof DOCUMENT_TYPES;
export type DocumentTypeLabel = (typeof DOCUMENT_TYPES)[DocumentTypeId]["label"];

export const DOCUMENT_TYPE_IDS = Object.keys(DOCUMENT_TYPES) as DocumentTypeId[];

const ID_BY_LABEL = new Map<string, DocumentTypeId>(
  DOCUMENT_TYPE_IDS.map((id) => [DOCUMENT_TYPES[id].label, id]),
);

export function labelOf(id: DocumentTypeId): DocumentTypeLabel {
  return DOCUMENT_TYPES[id].label;
}

export function idOfLabel(label: string): DocumentTypeId | undefined {
  return ID_BY_LABEL.get(label);
}

const DATE_RE = /^\d{4}-(0[1-9]|1[0-2])-(0[1-9]|[12]\d|3[01])$/;

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

function checkValue(kind: FieldKind, value: unknown): string | undefined {
  if (kind === "string") return typeof value === "string" && value.trim() !== "" ? undefined : "a non-empty string";
  if (kind === "number") return typeof value === "number" && Number.isFinite(value) ? undefined : "a finite number";
  if (kind === "date") {
    if (typeof value !== "string" || !DATE_RE.test(value)) return "a date YYYY-MM-DD";
    const time = Date.parse(`${value}T00:00:00Z`);
    return Number.isNaN(time) || new Date(time).toISOString().slice(0, 10) !== value ? "a real calendar date" : undefined;
  }
  if (kind === "string[]") {
    if (!Array.isArray(value) || value.some((v) => typeof v !== "string" || v === "")) return "an array of strings";
    return new Set(value).size === value.length ? undefined : "an array without duplicates";
  }
  if ("enum" in kind) return kind.enum.includes(value as string) ? undefined : `one of ${kind.enum.join(", ")}`;
  if (!Array.isArray(value) || !value.every(isObject)) return "an array of objects";
  const unknownKey = value.flatMap((item) => Object.keys(item)).find((k) => !kind.objects.includes(k));
  return unknownKey ? `objects with keys ${kind.objects.join(", ")} (found ${unknownKey})` : undefined;
}

/**
 * Checks an `extracted` object against the contract of its type. Returns the
 * problems found (empty when it conforms): unknown keys and values of the
 * wrong kind.
 */
export function validateExtracted(id: DocumentTypeId, extracted: Record<string, unknown>): string[] {
  const fields: Record<string, FieldKind> = DOCUMENT_TYPES[id].fields;
  const problems: string[] = [];
  for (const [key, value] of Object.entries(extracted)) {
    const kind = fields[key];
    if (!kind) {
      problems.push(`${key}: not a key of ${DOCUMENT_TYPES[id].label}`);
      continue;
    }
    const expected = checkValue(kind, value);
    if (expected) problems.push(`${key}: expected ${expected}`);
  }
  return problems;
}
