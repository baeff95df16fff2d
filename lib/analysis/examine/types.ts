/**
 * The examination contract: a presentation (the analyses of a credit and the
 * documents presented under it) in, findings and a comparison matrix out.
 * This is exactly what `POST /v1/documents/compare` and `npm run examine` return.
 */
import type { DocumentTypeLabel, SplitResult } from "../types";

export type Severity = "discrepancy" | "warning" | "info";

/** One analysed document of the presentation (one split of an uploaded file). */
export interface ExaminedDocument {
  /** Stable within the presentation, e.g. `invoice.pdf#2` (file name and split index). */
  id: string;
  fileName?: string;
  result: SplitResult;
  /**
   * The document's raw text, when the caller has it. Only rules that read
   * clauses rather than fields use it (clean B/L, transhipment, credit number
   * on documents without an `lc_number` key); without it they stay silent.
   */
  text?: string;
  /** Where `text` came from; with `ocr`, a clause or number not found in it is a warning, not a discrepancy. */
  textSource?: "text-layer" | "ocr";
}

export interface FindingDocument {
  id: string;
  type: DocumentTypeLabel;
  pages: number[];
}

export interface Finding {
  /** Stable rule id, e.g. `invoice.amount_within_credit`. */
  rule: string;
  /** Where the rule comes from: "UCP 600 art. 18(b)", "ISBP 821 A12". */
  reference: string;
  severity: Severity;
  documents: FindingDocument[];
  /** Extracted keys involved, e.g. `["total_amount"]`. */
  fields: string[];
  expected?: string;
  found?: string;
  /** One sentence as a document checker writes it. */
  message: string;
}

/** Tolerances the rules apply; every one can be overridden per examination. */
export interface Tolerances {
  /** Credit amount tolerance when the credit says "about" / "approximately" (art. 30(a)). */
  aboutPct: number;
  /** Quantity tolerance for bulk goods when the credit does not count units (art. 30(b)). */
  quantityPct: number;
  /** Weights agree within this many kilograms: absorbs rounding and unit conversion. */
  weightKg: number;
  /** ...or within this percentage of the larger weight. */
  weightPct: number;
  /** Presentation period when the credit has no :48: (art. 14(c)). */
  presentationDays: number;
  /** Share of the credit's goods words an invoice must carry before its description is called non-corresponding. */
  descriptionMinCoverage: number;
  /** Below this share (but above the minimum) the description is a warning, not a discrepancy. */
  descriptionFullCoverage: number;
  /** Similarity (0..1) above which two party names read as the same party despite OCR noise. */
  nameSimilarity: number;
}

export type CellState = "present" | "missing" | "absent";

export interface MatrixCell {
  /** Printable value as extracted (numbers stay numbers, lists stay lists). */
  value: string | number | string[] | null;
  /** `present`; `missing` where this document should carry the fact and does not (flagged); `absent` where it need not. */
  state: CellState;
  /** The extracted key the value came from. */
  field?: string;
}

/**
 * `mismatch`: a finding (discrepancy or warning) concerns the row; `missing`: a document that should
 * show the fact does not; `differs`: values differ but no rule calls it a discrepancy (e.g. art. 14(k));
 * `not_compared`: fewer than two values, or a row (dates, descriptions) whose values are not meant to be equal.
 */
export type RowStatus = "agree" | "mismatch" | "missing" | "differs" | "not_compared";

export interface MatrixRow {
  key: string;
  label: string;
  /** One cell per column, in column order. */
  cells: MatrixCell[];
  status: RowStatus;
  /** Why the row is a mismatch or missing, in the checker's words. */
  reason?: string;
  /** Rule ids whose findings decide this row's status. */
  rules: string[];
}

export interface MatrixColumn {
  id: string;
  fileName?: string;
  type: DocumentTypeLabel;
  pages: number[];
  /** What the document is to the examination. */
  role: "credit" | "amendment" | "instruction" | "contract" | "presented";
}

export interface ComparisonMatrix {
  columns: MatrixColumn[];
  rows: MatrixRow[];
}

export interface ExaminationInput {
  documents: ExaminedDocument[];
  /** YYYY-MM-DD */
  presentationDate: string;
  tolerances?: Partial<Tolerances>;
}

export interface ExaminationResult {
  findings: Finding[];
  matrix: ComparisonMatrix;
}
