import { describe, expect, test } from "vitest";
import { parseVolumeCbm } from "./volume";
import { parseWeightKg, weightUnitFactor } from "./weight";

describe("parseWeightKg", () => {
  test.each([
    ["12,741.000 KGS", 12741],
    ["12741 KG", 12741],
    ["12,500 Kgs.", 12500],
    ["500 KILOS", 500],
    ["5,000 MT", 5_000_000],
    ["5,000.000 METRIC TONS", 5_000_000],
    ["2 M/T", 2000],
    ["3 TONNES", 3000],
    ["1,000 LBS", 453.592],
    ["10 LB", 4.536],
    ["500 G", 0.5],
    ["5 PALLETS 6,250.000 KGS", 6250],
    ["GROSS WEIGHT: 12.741,5 KGS", 12741.5],
    ["12,705. 80 Kgs.", 12705.8],
  ])("%s → %d kg", (text, kg) => {
    expect(parseWeightKg(text)).toBe(kg);
  });

  test("a bare number needs a default unit", () => {
    expect(parseWeightKg("6,900")).toBeUndefined();
    expect(parseWeightKg("6,900", 1)).toBe(6900);
    expect(parseWeightKg("2", 1000)).toBe(2000);
  });

  test("header units", () => {
    expect(weightUnitFactor("Gross Weight (KGS)")).toBe(1);
    expect(weightUnitFactor("G.W. (LBS)")).toBeCloseTo(0.4536, 3);
    expect(weightUnitFactor("G.W.")).toBeUndefined();
  });
});

describe("parseVolumeCbm", () => {
  test.each([
    ["9.000 CBM", 9],
    ["7.215 M3", 7.215],
    ["7.215 m³", 7.215],
    ["12 CU.M.", 12],
    ["1,000 CFT", 28.317],
  ])("%s → %d m³", (text, cbm) => {
    expect(parseVolumeCbm(text)).toBe(cbm);
  });

  test("a weight is not a volume", () => {
    expect(parseVolumeCbm("9,000 KGS")).toBeUndefined();
  });
});
