/**
 * Examination of a presentation under a documentary credit: every rule
 * family over the set, findings ordered by severity, and the comparison matrix.
 * Pure: no I/O, no clock (the caller gives the presentation date).
 */
import { DOCUMENT_TYPES } from "../schema";
import { RULE_FAMILIES } from "./catalog";
import { weighReads } from "./doubt";
import { ExaminationError } from "./errors";
import { isIsoDate } from "./fields";
import { buildMatrix } from "./matrix";
import { buildPresentation, type Presentation } from "./presentation";
import { DEFAULT_TOLERANCES } from "./tolerances";
import type { ExaminationInput, ExaminationResult, Finding, Severity, Tolerances } from "./types";

/** A presentation is a set of documents, not a file dump: refuse what no checker would examine. */
export const MAX_DOCUMENTS = 200;

const SEVERITY_ORDER: Severity[] = ["discrepancy", "warning", "info"];

/**
 * Rules that compare free text (names, descriptions, places). On a document
 * read by OCR, their discrepancies are warnings: a misread word must not
 * become a refusal without a person looking at the page. Figures, dates and
 * references keep their severity.
 */
const FREE_TEXT_RULES = new Set([
  "invoice.issued_by_beneficiary", "invoice.made_out_to_applicant", "invoice.goods_description",
  "shipment.port_of_loading", "shipment.port_of_discharge", "bl.consignee_as_credit", "bl.notify_party_as_credit",
  "conditions.shipper_is_beneficiary", "consistency.consignee", "consistency.ports", "consistency.vessel",
]);

function softenOcrFreeText(findings: Finding[], presentation: Presentation): Finding[] {
  const ocr = new Set(presentation.all.filter((d) => d.textFromOcr).map((d) => d.id));
  return findings.map((f) =>
    f.severity === "discrepancy" && FREE_TEXT_RULES.has(f.rule) && f.documents.some((d) => ocr.has(d.id))
      ? { ...f, severity: "warning" as const }
      : f,
  );
}
const LABELS = new Set<string>(Object.values(DOCUMENT_TYPES).map((t) => t.label));

function checkTolerances(given: Partial<Tolerances> | undefined): Tolerances {
  const merged = { ...DEFAULT_TOLERANCES };
  for (const [key, value] of Object.entries(given ?? {})) {
    if (!(key in DEFAULT_TOLERANCES)) throw new ExaminationError(`Unknown tolerance "${key}".`);
    if (typeof value !== "number" || !Number.isFinite(value) || value < 0) {
      throw new ExaminationError(`Tolerance "${key}" must be a number of zero or more.`);
    }
    merged[key as keyof Tolerances] = value;
  }
  return merged;
}

function checkInput(input: ExaminationInput): void {
  if (!input || !Array.isArray(input.documents)) throw new ExaminationError("documents must be an array of analysed documents.");
  if (input.documents.length > MAX_DOCUMENTS) throw new ExaminationError(`A presentation may hold at most ${MAX_DOCUMENTS} documents.`);
  if (typeof input.presentationDate !== "string" || !isIsoDate(input.presentationDate)) {
    throw new ExaminationError("presentationDate must be a date written YYYY-MM-DD.");
  }
  const ids = new Set<string>();
  input.documents.forEach((d, i) => {
    if (!d || typeof d.id !== "string" || !d.id) throw new ExaminationError(`Document ${i + 1} has no id.`);
    if (ids.has(d.id)) throw new ExaminationError(`Document id "${d.id}" appears twice.`);
    ids.add(d.id);
    const split = d.result?.split;
    if (!split || !LABELS.has(split.document_type) || !Array.isArray(split.pages)) {
      throw new ExaminationError(`Document "${d.id}" is not an analysis result (split.document_type, split.pages).`);
    }
    if (!d.result.extracted || typeof d.result.extracted !== "object" || Array.isArray(d.result.extracted)) {
      throw new ExaminationError(`Document "${d.id}" has no extracted object.`);
    }
    if (d.text !== undefined && typeof d.text !== "string") throw new ExaminationError(`Document "${d.id}" has a text that is not a string.`);
    if (d.textSource !== undefined && d.textSource !== "ocr" && d.textSource !== "text-layer") {
      throw new ExaminationError(`Document "${d.id}" has textSource "${String(d.textSource)}"; use "ocr" or "text-layer".`);
    }
  });
}

export function examinePresentation(input: ExaminationInput): ExaminationResult {
  checkInput(input);
  const tolerances = checkTolerances(input.tolerances);
  const presentation = buildPresentation(input.documents, input.presentationDate, tolerances);
  const raw = RULE_FAMILIES.flatMap((family) => family.check(presentation));
  // A discrepancy must rest on values the engine is sure of: unsure reads make it a warning (doubt.ts).
  const findings = weighReads(softenOcrFreeText(raw, presentation), presentation.all);
  // Stable sort: within a severity, findings keep the checker's order of families.
  findings.sort((a, b) => SEVERITY_ORDER.indexOf(a.severity) - SEVERITY_ORDER.indexOf(b.severity));
  return { findings, matrix: buildMatrix(presentation, findings) };
}
