import "server-only";
import type { Db } from "@/db/client";
import { findAnalysis } from "@/db/queries/analyses";
import { splitTextOf, type PageText, type ExaminedDocument } from "@/lib/analysis";
import { ApiError } from "@/lib/errors";

export const ANALYSIS_ID_FIELD = "analysis_id";
/** Most stored analyses one compare may name: a bank set is a credit and a dozen documents, rarely more. */
export const MAX_COMPARE_ANALYSES = 50;
/** `ana_` and 128 random bits in base62 (db/ids.ts). Anything else is refused before the database. */
export const ANALYSIS_ID_PATTERN = /^ana_[0-9A-Za-z]{22}$/;

/** The same words for an id that does not exist and one of another organisation: existence is not disclosed. */
function notFound(id: string): ApiError {
  return new ApiError("not_found", `No analysis ${id} was found for this API key's organization.`);
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

/**
 * The stored response body as examined documents. Only `split` and
 * `extracted` are taken (no evidence), copied into fresh objects: the row is
 * data, not something to merge. The stored page text feeds the clause rules
 * (clean B/L, transhipment, credit number on documents, :44D:, amendment
 * codes); analyses stored without it leave those rules silent.
 */
function documentsOf(id: string, inputName: string | null, result: unknown, pageText: unknown): ExaminedDocument[] {
  const texts = storedPageTexts(pageText);
  if (!Array.isArray(result)) throw new ApiError("unprocessable", `Analysis ${id} holds no analysis result to examine.`);
  return result.map((element: unknown, i) => {
    const split = isObject(element) ? element.split : undefined;
    const extracted = isObject(element) ? element.extracted : undefined;
    if (!isObject(split) || typeof split.document_type !== "string" || !Array.isArray(split.pages) || !isObject(extracted)) {
      throw new ApiError("unprocessable", `Analysis ${id} holds a result that is not an analysis (split, extracted).`);
    }
    const pages = split.pages.filter((p): p is number => typeof p === "number");
    const fields = Object.fromEntries(Object.entries(extracted).filter(([key]) => key !== "__proto__"));
    const document: ExaminedDocument = {
      id: `${id}#${i + 1}`,
      result: { split: { document_type: split.document_type as ExaminedDocument["result"]["split"]["document_type"], pages }, extracted: fields },
    };
    if (inputName) document.fileName = inputName;
    return texts ? { ...document, ...splitTextOf(texts, pages) } : document;
  });
}

/** The stored page text when it has the shape pageTextsOf writes; anything else counts as none. */
function storedPageTexts(value: unknown): PageText[] | undefined {
  if (!Array.isArray(value)) return undefined;
  const texts = value.filter(
    (p): p is PageText => isObject(p) && typeof p.number === "number" && typeof p.text === "string" && typeof p.ocr === "boolean",
  );
  return texts.length === value.length ? texts.map(({ number, text, ocr }) => ({ number, text, ocr })) : undefined;
}

/** Ids as sent: each well formed, none twice. Malformed → 400, before any query. */
export function checkAnalysisIds(values: string[]): string[] {
  const seen = new Set<string>();
  return values.map((raw) => {
    const id = raw.trim();
    if (!ANALYSIS_ID_PATTERN.test(id)) {
      throw new ApiError("invalid_input", `The ${ANALYSIS_ID_FIELD} "${raw.slice(0, 40)}" is not an analysis id (ana_ followed by 22 letters and digits).`);
    }
    if (seen.has(id)) throw new ApiError("invalid_input", `The ${ANALYSIS_ID_FIELD} ${id} is given twice.`);
    seen.add(id);
    return id;
  });
}

/**
 * Loads stored analyses of the caller's organization, in the order given.
 * Every query carries the organization id: another organization's analysis is
 * exactly as absent as one that never existed (404, same words).
 */
export async function loadAnalyses(db: Db, organizationId: string, ids: string[]): Promise<ExaminedDocument[]> {
  const documents: ExaminedDocument[] = [];
  for (const id of ids) {
    const row = await findAnalysis(db, { organizationId, analysisId: id });
    if (!row) throw notFound(id);
    documents.push(...documentsOf(id, row.inputName, row.result, row.pageText));
  }
  return documents;
}
