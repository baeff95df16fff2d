import "server-only";
import type { Db } from "@/db/client";
import { findAnalysis } from "@/db/queries/analyses";
import type { ExaminedDocument } from "@/lib/analysis/examine/types";
import { ApiError } from "./errors";

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
 * data, not something to merge. Stored analyses keep no page text, so the
 * clause rules (clean B/L, transhipment, credit number on documents, :44D:,
 * amendment codes) stay silent on them.
 */
function documentsOf(id: string, inputName: string | null, result: unknown): ExaminedDocument[] {
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
    return document;
  });
}

/** Ids as sent: each well formed, none twice. Malformed → 400, before any query. */
export function checkAnalysisIds(values: string[]): string[] {
  const seen = new Set<string>();
  return values.map((raw) => {
    const id = raw.trim();
    if (!ANALYSIS_ID_PATTERN.test(id)) {
      throw new ApiError("bad_request", `The ${ANALYSIS_ID_FIELD} "${raw.slice(0, 40)}" is not an analysis id (ana_ followed by 22 letters and digits).`);
    }
    if (seen.has(id)) throw new ApiError("bad_request", `The ${ANALYSIS_ID_FIELD} ${id} is given twice.`);
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
    documents.push(...documentsOf(id, row.inputName, row.result));
  }
  return documents;
}
