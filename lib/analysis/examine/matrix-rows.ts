/**
 * The facts a checker lines up across the documents of a set, and where each
 * document type carries them. A list of keys is shown joined ("2000 BAGS");
 * `expectedOn` marks the types that must show the fact (flagged when absent);
 * `rules` are the rules whose findings decide the row's status.
 */
import type { DocumentTypeId } from "../schema";

/** How the row's values are compared when no rule decided: names, figures, references, ports, sets; `none` for rows like dates. */
export type Comparison = "party" | "number" | "ref" | "port" | "set" | "vessel" | "none";

export interface RowSpec {
  key: string;
  label: string;
  compare: Comparison;
  fields: Partial<Record<DocumentTypeId, string | string[]>>;
  expectedOn: DocumentTypeId[];
  rules: string[];
}

type Fields = RowSpec["fields"];

const CERTIFICATE_TYPES: DocumentTypeId[] = [
  "certificate_of_origin", "certificate_of_weight", "certificate_of_quality", "phytosanitary_certificate", "fumigation_certificate",
];

function onAll(types: DocumentTypeId[], key: string | string[]): Fields {
  return Object.fromEntries(types.map((t) => [t, key]));
}

const ISSUE_DATES: Fields = {
  ...onAll(["letter_of_credit", "document_instruction", "contract", "packing_list", "bill_of_lading", ...CERTIFICATE_TYPES], "date_of_issue"),
  commercial_invoice: "invoice_date",
};

export const MATRIX_ROWS: RowSpec[] = [
  {
    key: "beneficiary", label: "Beneficiary / seller / shipper / exporter", compare: "party", expectedOn: ["commercial_invoice"],
    fields: {
      letter_of_credit: "beneficiary", contract: "seller", commercial_invoice: "seller", packing_list: "seller",
      bill_of_lading: "shipper", certificate_of_origin: "exporter", certificate_of_weight: "shipper", certificate_of_quality: "shipper",
      phytosanitary_certificate: "exporter", fumigation_certificate: "exporter", document_instruction: "shipper",
    },
    rules: ["invoice.issued_by_beneficiary", "conditions.shipper_is_beneficiary"],
  },
  {
    key: "applicant", label: "Applicant / buyer", compare: "party", expectedOn: ["commercial_invoice"],
    fields: { letter_of_credit: "applicant", contract: "buyer", commercial_invoice: "buyer", packing_list: "buyer" },
    rules: ["invoice.made_out_to_applicant"],
  },
  {
    key: "consignee", label: "Consignee", compare: "party", expectedOn: ["bill_of_lading"],
    fields: { ...onAll(["bill_of_lading", "commercial_invoice", "packing_list", "document_instruction", ...CERTIFICATE_TYPES], "consignee") },
    rules: ["bl.consignee_as_credit", "consistency.consignee"],
  },
  {
    key: "notify_party", label: "Notify party", compare: "party", expectedOn: ["bill_of_lading"],
    fields: { bill_of_lading: "notify_party", document_instruction: "notify_party" },
    rules: ["bl.notify_party_as_credit", "consistency.notify_party"],
  },
  {
    key: "goods", label: "Goods description", compare: "none", expectedOn: ["commercial_invoice", "bill_of_lading"],
    fields: onAll(["letter_of_credit", "contract", "document_instruction", "commercial_invoice", "packing_list", "bill_of_lading", ...CERTIFICATE_TYPES], "description_of_goods"),
    rules: ["invoice.goods_description", "documents.goods_description_not_conflicting"],
  },
  {
    key: "quantity", label: "Quantity", compare: "none", expectedOn: ["commercial_invoice"],
    fields: { contract: ["quantity", "quantity_unit"], commercial_invoice: ["quantity", "quantity_unit"], phytosanitary_certificate: "quantity_declared" },
    rules: ["invoice.quantity_within_tolerance"],
  },
  {
    key: "gross_weight", label: "Gross weight (kg)", compare: "number", expectedOn: ["bill_of_lading", "packing_list"],
    fields: onAll(["commercial_invoice", "packing_list", "bill_of_lading", "certificate_of_origin", "certificate_of_weight"], "gross_weight_kg"),
    rules: ["consistency.gross_weight"],
  },
  {
    key: "net_weight", label: "Net weight (kg)", compare: "number", expectedOn: ["packing_list"],
    fields: onAll(["commercial_invoice", "packing_list", "bill_of_lading", "certificate_of_weight"], "net_weight_kg"),
    rules: ["consistency.net_weight"],
  },
  {
    key: "packages", label: "Packages", compare: "number", expectedOn: ["bill_of_lading", "packing_list"],
    fields: {
      ...onAll(["commercial_invoice", "certificate_of_origin", "certificate_of_weight", "fumigation_certificate"], "number_of_packages"),
      packing_list: ["number_of_packages", "package_type"], bill_of_lading: ["number_of_packages", "package_type"],
    },
    rules: ["consistency.packages"],
  },
  {
    key: "marks", label: "Shipping marks", compare: "none", expectedOn: [],
    fields: { packing_list: "marks_and_numbers", document_instruction: "marks_and_numbers", phytosanitary_certificate: "distinguishing_marks" },
    rules: ["consistency.marks"],
  },
  {
    key: "vessel", label: "Vessel", compare: "vessel", expectedOn: ["bill_of_lading"],
    fields: {
      ...onAll(["commercial_invoice", "packing_list", "bill_of_lading", "certificate_of_origin", "certificate_of_weight", "certificate_of_quality", "fumigation_certificate"], "vessel"),
      phytosanitary_certificate: "means_of_conveyance",
    },
    rules: ["consistency.vessel", "shipment.partial_shipments"],
  },
  { key: "voyage", label: "Voyage", compare: "ref", expectedOn: [], fields: { bill_of_lading: "voyage" }, rules: ["consistency.vessel"] },
  {
    key: "port_of_loading", label: "Port of loading", compare: "port", expectedOn: ["bill_of_lading"],
    fields: onAll(["letter_of_credit", "contract", "document_instruction", "commercial_invoice", "packing_list", "bill_of_lading", "certificate_of_origin", "certificate_of_weight", "certificate_of_quality", "fumigation_certificate"], "port_of_loading"),
    rules: ["shipment.port_of_loading", "consistency.ports"],
  },
  {
    key: "port_of_discharge", label: "Port of discharge", compare: "port", expectedOn: ["bill_of_lading"],
    fields: {
      ...onAll(["letter_of_credit", "contract", "document_instruction", "commercial_invoice", "packing_list", "bill_of_lading", "certificate_of_origin", "certificate_of_weight", "fumigation_certificate"], "port_of_discharge"),
      phytosanitary_certificate: "point_of_entry",
    },
    rules: ["shipment.port_of_discharge", "consistency.ports"],
  },
  {
    key: "containers", label: "Container numbers", compare: "set", expectedOn: [],
    fields: onAll(["bill_of_lading", "packing_list", "certificate_of_weight", "certificate_of_quality", "phytosanitary_certificate", "fumigation_certificate"], "container_numbers"),
    rules: ["consistency.containers"],
  },
  { key: "seals", label: "Seal numbers", compare: "set", expectedOn: [], fields: { bill_of_lading: "seal_numbers" }, rules: ["consistency.seals"] },
  {
    key: "lc_number", label: "Credit number", compare: "ref", expectedOn: ["letter_of_credit"],
    fields: onAll(["letter_of_credit", "document_instruction", "commercial_invoice", "bill_of_lading"], "lc_number"),
    rules: ["consistency.lc_number", "conditions.credit_number_on_documents"],
  },
  {
    key: "invoice_number", label: "Invoice number", compare: "ref", expectedOn: ["commercial_invoice"],
    fields: onAll(["commercial_invoice", "packing_list", "certificate_of_origin"], "invoice_number"),
    rules: ["consistency.invoice_number"],
  },
  {
    key: "bl_number", label: "B/L number", compare: "ref", expectedOn: ["bill_of_lading"],
    fields: onAll(["bill_of_lading", "commercial_invoice", "certificate_of_weight", "certificate_of_quality"], "bl_number"),
    rules: ["consistency.bl_number"],
  },
  {
    key: "contract_number", label: "Contract number", compare: "ref", expectedOn: ["contract"],
    fields: onAll(["contract", "commercial_invoice", "document_instruction"], "contract_number"),
    rules: ["consistency.contract_number"],
  },
  {
    key: "shipment_date", label: "Shipment date (latest for the credit)", compare: "none", expectedOn: ["bill_of_lading"],
    fields: { letter_of_credit: "latest_shipment_date", contract: "latest_shipment_date", bill_of_lading: "shipped_on_board_date" },
    rules: ["shipment.latest_date", "shipment.period", "presentation.period", "conditions.dated_before_credit"],
  },
  {
    key: "issue_date", label: "Date of issue", compare: "none", expectedOn: [], fields: ISSUE_DATES,
    rules: ["documents.dated_after_presentation", "conditions.dated_before_credit"],
  },
  {
    key: "event_dates", label: "Fumigation, treatment, inspection, weighing", compare: "none", expectedOn: [],
    fields: {
      fumigation_certificate: "fumigation_date", phytosanitary_certificate: "treatment_date",
      certificate_of_quality: "date_of_inspection", certificate_of_weight: "date_of_weighing",
    },
    rules: ["documents.pre_shipment_event"],
  },
  { key: "expiry", label: "Expiry", compare: "none", expectedOn: ["letter_of_credit"], fields: { letter_of_credit: "expiry_date" }, rules: ["presentation.expiry"] },
  {
    key: "amount", label: "Amount", compare: "none", expectedOn: ["letter_of_credit", "commercial_invoice"],
    fields: { letter_of_credit: "amount", contract: "total_amount", commercial_invoice: "total_amount" },
    rules: ["invoice.amount_within_credit"],
  },
  {
    key: "currency", label: "Currency", compare: "ref", expectedOn: ["letter_of_credit", "commercial_invoice"],
    fields: onAll(["letter_of_credit", "contract", "commercial_invoice"], "currency"),
    rules: ["invoice.currency"],
  },
  {
    key: "trade_terms", label: "Incoterm / freight", compare: "none", expectedOn: [],
    fields: { ...onAll(["letter_of_credit", "contract", "commercial_invoice"], "incoterms"), bill_of_lading: "freight_terms" },
    rules: ["bl.freight_terms"],
  },
];
