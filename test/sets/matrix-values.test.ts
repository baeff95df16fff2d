import { describe, expect, it } from "vitest";
import type { MatrixCell } from "@/lib/analysis";
import { referenceIndex, sameValue } from "@/components/sets/matrix-values";
import { rowTolerances } from "@/lib/sets/tolerance-notes";

const present = (value: MatrixCell["value"]): MatrixCell => ({ value, state: "present" });
const absent: MatrixCell = { value: null, state: "absent" };

describe("comparison table values", () => {
  const weight = sameValue(rowTolerances().gross_weight);

  it("holds figures within the row's tolerance as the same, and beyond it as different", () => {
    expect(weight(49080.055, 49080)).toBe(true);
    expect(weight("49,080", 49081)).toBe(true);
    expect(weight(50330, 49080)).toBe(false);
    expect(sameValue(undefined)(49080.055, 49080)).toBe(false);
  });

  it("compares text without case, spacing or punctuation", () => {
    expect(sameValue(undefined)("Mekong Green Foods JSC.", "MEKONG  GREEN FOODS JSC")).toBe(true);
    expect(sameValue(undefined)("MEKONG GREEN FOODS", "MEKONG FOODS")).toBe(false);
  });

  it("takes the value most documents agree on as the reference, so the odd one stands out", () => {
    const cells = [absent, present(49080.055), present(49080), present(50330), present(49080)];
    expect(referenceIndex(cells, weight)).toBe(1);
    expect(referenceIndex([present(50330), present(49080), present(49080)], weight)).toBe(1);
    expect(referenceIndex([absent, absent], weight)).toBeUndefined();
  });
});
