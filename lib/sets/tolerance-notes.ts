import { DEFAULT_TOLERANCES } from "@/lib/analysis/examine/tolerances";
import type { Tolerances } from "@/lib/analysis/examine/types";

/**
 * The tolerance each figure row of the comparison is checked with, written
 * for the reader ("±1 kg"), keyed by matrix row. Rows compared exactly have none.
 */
export function toleranceNotes(t: Tolerances = DEFAULT_TOLERANCES): Record<string, string> {
  const weight = t.weightPct > 0 ? `±${t.weightKg} kg or ±${t.weightPct}%` : `±${t.weightKg} kg`;
  return {
    gross_weight: weight,
    net_weight: weight,
    quantity: `±${t.quantityPct}% against the credit (UCP 600 art. 30(b))`,
    amount: `credit amount, +${t.aboutPct}% when the credit says "about" (art. 30(a))`,
  };
}
