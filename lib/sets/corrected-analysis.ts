import "server-only";
import type { Db } from "@/db/client";
import { findSetFileOfAnalysis } from "@/db/queries/set-review";
import type { SplitResult } from "@/lib/analysis";
import { getSet } from "./get-set";

/** A value a checker corrected, as the public API names it. */
export interface ApiCorrection {
  /** 0-based index of the split in `result`. */
  split: number;
  field: string;
  value: unknown;
  /** What the engine had read; null when the value was added by hand. */
  original: unknown;
  corrected_by: string | null;
  corrected_at: string;
}

/**
 * The analysis of a set file as the checker left it: the splits in force
 * (split corrections) with the corrected values, and which values those are.
 * Undefined for an analysis that belongs to no set file.
 */
export async function correctedAnalysis(
  db: Db,
  params: { organizationId: string; analysisId: string },
): Promise<{ result: SplitResult[]; corrections: ApiCorrection[] } | undefined> {
  const file = await findSetFileOfAnalysis(db, params);
  if (!file) return undefined;
  const view = await getSet(db, { organizationId: params.organizationId, setId: file.setId });
  const shown = view.files.find((f) => f.id === file.id);
  if (!shown || shown.status !== "done") return undefined;
  return {
    result: shown.splits,
    corrections: shown.fieldCorrections.map((c) => ({
      split: c.splitIndex,
      field: c.field,
      value: c.value,
      original: c.original,
      corrected_by: c.correctedBy,
      corrected_at: c.correctedAt,
    })),
  };
}
