import "server-only";
import { z } from "zod";
import type { Db } from "@/db/client";
import { findAnalysis } from "@/db/queries/analyses";
import { findLatestSplitCorrection, insertSplitCorrection } from "@/db/queries/sets-corrections";
import { findSetFile } from "@/db/queries/sets-files";
import { DOCUMENT_TYPE_IDS, type Page, type SplitResult } from "@/lib/analysis";
import { ApiError } from "@/lib/errors";
import { parseInput } from "@/lib/services/validation";
import { newId } from "@/db/ids";
import { applyCorrection, extractLayout, layoutOf, type LayoutSplit, type SplitCorrection } from "./split-layout";

const FILE_NOT_FOUND = "No such file in this set.";
const index = z.number().int().nonnegative();

/** The PATCH body: one correction at a time, so each is kept (and shown) on its own. */
const SplitCorrectionSchema: z.ZodType<SplitCorrection> = z.discriminatedUnion("action", [
  z.object({ action: z.literal("retype"), splitIndex: index, documentType: z.enum(DOCUMENT_TYPE_IDS as [string, ...string[]]) }),
  z.object({ action: z.literal("split"), page: z.number().int().positive() }),
  z.object({ action: z.literal("merge"), splitIndex: index }),
  z.object({ action: z.literal("reset") }),
]) as z.ZodType<SplitCorrection>;

/**
 * Applies one hand correction to a file's splits, extracts the corrected
 * splits again from the stored pages and keeps the correction; returns the
 * splits now in force.
 */
export async function correctSplit(
  db: Db,
  params: { organizationId: string; setId: string; fileId: string; userId: string; correction: unknown },
): Promise<SplitResult[]> {
  const correction = parseInput(SplitCorrectionSchema, params.correction);
  const scope = { organizationId: params.organizationId };
  return db.transaction(async (tx) => {
    const file = await findSetFile(tx, params);
    if (!file) throw new ApiError("not_found", FILE_NOT_FOUND);
    const analysis = file.analysisId ? await findAnalysis(tx, { ...scope, analysisId: file.analysisId }) : undefined;
    if (file.status !== "done" || !analysis || !file.pages) {
      throw new ApiError("conflict", "The file has not been analysed yet; correct its splits once its analysis is done.");
    }
    const original = layoutOf(analysis.result as SplitResult[]);
    const latest = await findLatestSplitCorrection(tx, { ...scope, fileId: file.id });
    const current = latest ? (latest.layout as LayoutSplit[]) : original;
    const layout = applyCorrection(current, correction, original);
    const result = correction.action === "reset" ? (analysis.result as SplitResult[]) : extractLayout(layout, file.pages as Page[]);
    await insertSplitCorrection(tx, {
      id: newId("cor"),
      setFileId: file.id,
      organizationId: params.organizationId,
      action: correction.action,
      splitIndex: "splitIndex" in correction ? correction.splitIndex : null,
      page: "page" in correction ? correction.page : null,
      documentType: "documentType" in correction ? correction.documentType : null,
      layout,
      result,
      createdBy: params.userId,
    });
    return result;
  });
}
