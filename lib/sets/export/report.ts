/**
 * What the discrepancy report says, built from the set as the checker left
 * it (corrected values, decisions): the presentation, the credit terms
 * examined, each finding with its article, documents, pages and decision,
 * the documents with who reviewed them, and the values corrected by hand.
 * The PDF, XLSX and CSV writers only lay this out.
 */
import type { Severity } from "@/lib/analysis";
import { formatPages, formatValue, labelOfKey } from "../format";
import type { PresentationStatus, SetView } from "../types";

/** The credit's terms a checker reads first, in the order of an MT700. */
const CREDIT_TERMS = [
  "lc_number", "form_of_credit", "date_of_issue", "issuing_bank", "applicant", "beneficiary", "currency", "amount",
  "tolerance_plus_pct", "tolerance_minus_pct", "expiry_date", "expiry_place", "latest_shipment_date", "presentation_period_days",
  "port_of_loading", "port_of_discharge", "partial_shipments", "transhipment", "incoterms", "description_of_goods",
] as const;

const STATUS_TEXT: Record<PresentationStatus, string> = { pending: "Pending", compliant: "Compliant", discrepant: "Discrepant" };
const SEVERITY_TEXT: Record<Severity, string> = { discrepancy: "Discrepancy", warning: "Warning", info: "Note" };

interface ReportFinding {
  severity: string;
  reference: string;
  message: string;
  documents: string;
  expected: string;
  found: string;
  decision: string;
  note: string;
  decidedBy: string;
  decidedAt: string;
}

export interface Report {
  setName: string;
  presentationDate: string;
  status: string;
  generatedAt: string;
  generatedBy: string;
  credit: [string, string][];
  documents: { document: string; fileName: string; reviewed: string }[];
  findings: ReportFinding[];
  corrections: { document: string; field: string; value: string; original: string; by: string; at: string }[];
}

/** "2030-01-02 03:04 UTC": a report is read elsewhere, so its times say their zone. */
function reportTime(iso: string): string {
  return `${iso.slice(0, 16).replace("T", " ")} UTC`;
}

/** The report of a set that has been examined; `by` is the member who asks for it. */
export function buildReport(view: SetView, by: string, now: Date = new Date()): Report {
  const examination = view.examination;
  if (!examination) throw new Error("buildReport needs an examined set");
  const docName = (type: string, pages: number[], fileName: string) => `${type}, ${formatPages(pages)} of ${fileName}`;
  const credit = view.files.flatMap((f) => f.splits).find((s) => s.split.document_type === "Letter of Credit");
  return {
    setName: view.set.name,
    presentationDate: examination.presentationDate,
    status: STATUS_TEXT[view.status],
    generatedAt: reportTime(now.toISOString()),
    generatedBy: by,
    credit: credit
      ? CREDIT_TERMS.filter((key) => credit.extracted[key] !== undefined).map((key) => [labelOfKey(key), formatValue(credit.extracted[key])])
      : [],
    documents: view.files.flatMap((file) =>
      file.splits.map((split, i) => {
        const review = file.reviews.find((r) => r.splitIndex === i);
        return {
          document: `${split.split.document_type}, ${formatPages(split.split.pages)}`,
          fileName: file.fileName,
          reviewed: review ? `${review.reviewedBy ?? "unknown"}, ${reportTime(review.reviewedAt)}` : "not reviewed",
        };
      }),
    ),
    findings: examination.findings.map((f) => ({
      severity: SEVERITY_TEXT[f.severity],
      reference: f.reference,
      message: f.message,
      documents: f.documents.map((d) => `${d.type} ${formatPages(d.pages)}`).join("; "),
      expected: f.expected ?? "",
      found: f.found ?? "",
      decision: f.severity === "info" ? "no decision needed" : f.decision ? (f.decision.decision === "accept" ? "Accepted: stands" : "Waived") : "Open",
      note: f.decision?.note ?? "",
      decidedBy: f.decision?.decidedBy ?? "",
      decidedAt: f.decision ? reportTime(f.decision.decidedAt) : "",
    })),
    corrections: view.files.flatMap((file) =>
      file.fieldCorrections.map((c) => {
        const split = file.splits[c.splitIndex]!;
        return {
          document: docName(split.split.document_type, split.split.pages, file.fileName),
          field: labelOfKey(c.field),
          value: formatValue(c.value),
          original: c.original === null ? "(added)" : formatValue(c.original),
          by: c.correctedBy ?? "unknown",
          at: reportTime(c.correctedAt),
        };
      }),
    ),
  };
}
