import { describe, expect, test } from "vitest";
import { parseCount, parsePackages, parseQuantity } from "./quantity";

describe("parseQuantity", () => {
  test.each([
    ["10,000 KGS", 10000, "KGS"],
    ["500 CARTONS", 500, "CARTONS"],
    ["5,000 PCS", 5000, "PCS"],
    ["5,000 MT", 5000, "MT"],
    ["28,644.0000 MTR", 28644, "MTR"],
    ["QUANTITY: 2280 KGS", 2280, "KGS"],
    ["5000 METRIC TONS OF SOYBEANS", 5000, "METRIC TONS"],
  ])("%s → %d %s", (text, value, unit) => {
    expect(parseQuantity(text)).toEqual({ value, unit });
  });
  test("a number alone has no unit", () => {
    expect(parseQuantity("5,000")).toBeUndefined();
  });
});

describe("parsePackages", () => {
  test.each([
    ["1,200 BAGS", 1200, "BAGS"],
    ["11 PACKAGE(S)", 11, "PACKAGE(S)"],
    ["40 PALLETS", 40, "PALLETS"],
    ["250 Cartons", 250, "Cartons"],
    ["TOTAL: 358 ROLLS ONLY", 358, "ROLLS"],
    ["5 (FIVE) PALLETS", 5, "PALLETS"],
    ["900 JUTE BAGS", 900, "JUTE BAGS"],
    ["71 BIG BAGS OF WHEAT", 71, "BIG BAGS"],
  ])("%s → %d %s", (text, count, type) => {
    expect(parsePackages(text)).toMatchObject({ count, type });
  });
  test("no package word, no packages", () => {
    expect(parsePackages("12,741 KGS")).toBeUndefined();
  });
});

describe("parseCount", () => {
  test.each([
    ["THREE (3)", 3],
    ["3/3", 3],
    ["3 (THREE)", 3],
    ["TWO", 2],
    ["ONE ORIGINAL", 1],
  ])("%s → %d", (text, count) => {
    expect(parseCount(text)).toBe(count);
  });
  test("no count", () => {
    expect(parseCount("ORIGINALS")).toBeUndefined();
  });
});
