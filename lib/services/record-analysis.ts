import { z } from "zod";
import type { Db } from "@/db/client";
import { newId } from "@/db/ids";
import { insertAnalysis } from "@/db/queries/analyses";
import type { PageText } from "@/lib/analysis";
import { organizationIdSchema, parseInput } from "./validation";

const INPUT_NAME_MAX_LENGTH = 255;
const count = z.number().int().nonnegative();

const RecordAnalysisInput = z.object({
  organizationId: organizationIdSchema,
  apiKeyId: z.string().min(1).nullish(),
  userId: z.string().min(1).nullish(),
  inputName: z.string().max(INPUT_NAME_MAX_LENGTH).nullish(),
  inputBytes: count,
  sha256: z.string().regex(/^[0-9a-f]{64}$/, "sha256 must be 64 lower-case hex digits"),
  pageCount: count,
  result: z.unknown().refine((value) => value !== undefined, "result is required"),
  pageText: z.array(z.object({ number: count, text: z.string(), ocr: z.boolean() })).nullish(),
  durationMs: count,
});

export interface RecordAnalysisInput {
  organizationId: string;
  apiKeyId?: string | null;
  userId?: string | null;
  /** The uploaded file name or the fetched URL's last segment. */
  inputName?: string | null;
  inputBytes: number;
  /** SHA-256 hex of the input bytes. */
  sha256: string;
  pageCount: number;
  /** The response body returned to the caller (stored as jsonb). */
  result: unknown;
  /** Each page's text, for examining the analysis later by id (lib/analysis/examine/page-text.ts). */
  pageText?: PageText[] | null;
  durationMs: number;
}

/** Stores one finished analysis for the organization; returns its id. */
export async function recordAnalysis(db: Db, input: RecordAnalysisInput): Promise<{ id: string; createdAt: Date }> {
  const params = parseInput(RecordAnalysisInput, input);
  const row = await insertAnalysis(db, {
    id: newId("ana"),
    organizationId: params.organizationId,
    apiKeyId: params.apiKeyId ?? null,
    userId: params.userId ?? null,
    inputName: params.inputName ?? null,
    inputBytes: params.inputBytes,
    sha256: params.sha256,
    pageCount: params.pageCount,
    result: params.result,
    pageText: params.pageText ?? null,
    durationMs: params.durationMs,
  });
  return { id: row.id, createdAt: row.createdAt };
}
