import { DEFAULT_TOLERANCES, type Tolerances } from "@/lib/analysis/examine";

export interface RowTolerance {
  /** For the reader: "±1 kg". */
  text: string;
  /** Figures this close (absolute, or percent of the larger) count as the same in the table. */
  absolute?: number;
  percent?: number;
}

/**
 * The tolerance each figure row of the comparison is checked with, keyed by
 * matrix row; rows compared exactly have none. The examination's own
 * tolerances, so the table never calls odd what the rules accept.
 */
export function rowTolerances(t: Tolerances = DEFAULT_TOLERANCES): Record<string, RowTolerance> {
  const weight: RowTolerance = {
    text: t.weightPct > 0 ? `±${t.weightKg} kg or ±${t.weightPct}%` : `±${t.weightKg} kg`,
    absolute: t.weightKg,
    percent: t.weightPct,
  };
  return {
    gross_weight: weight,
    net_weight: weight,
    quantity: { text: `±${t.quantityPct}% against the credit (UCP 600 art. 30(b))` },
    amount: { text: `credit amount, +${t.aboutPct}% when the credit says "about" (art. 30(a))` },
  };
}
