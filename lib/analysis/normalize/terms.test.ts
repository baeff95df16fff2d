import { describe, expect, test } from "vitest";
import { normalizeIncoterm } from "./incoterms";
import { normalizePort } from "./port";
import { normalizeFreightTerms, normalizePermission } from "./terms";
import { cleanValue, collapseText } from "./text";

describe("normalizeIncoterm", () => {
  test.each([
    ["CIF ROTTERDAM", "CIF ROTTERDAM"],
    ["CIF Rotterdam", "CIF Rotterdam"],
    ["Terms of delivery: FOB", "FOB"],
    ["FOB SHANGHAI, CHINA", "FOB SHANGHAI, CHINA"],
    ["CFR: BAHRAIN (INCOTERMS 2010)", "CFR BAHRAIN"],
    ["C&F DUBAI", "CFR DUBAI"],
    ["CIF, PORT KHALID, SHARJAH, UAE", "CIF PORT KHALID, SHARJAH, UAE"],
    ["DAP Hamburg Incoterms 2020", "DAP Hamburg"],
    ["EXW", "EXW"],
  ])("%s → %s", (text, value) => {
    expect(normalizeIncoterm(text)).toBe(value);
  });
  test("no term inside other words", () => {
    expect(normalizeIncoterm("CIFRA FOBIA")).toBeUndefined();
  });
});

describe("normalizeFreightTerms", () => {
  test.each([
    ["FREIGHT PREPAID", "prepaid"],
    ["Freight Pre-paid", "prepaid"],
    ["FREIGHT COLLECT", "collect"],
    ["PREPAID", "prepaid"],
    ["FREIGHT PAYABLE AT DESTINATION", "collect"],
  ])("%s → %s", (text, value) => {
    expect(normalizeFreightTerms(text)).toBe(value);
  });
  test("silent text", () => {
    expect(normalizeFreightTerms("FREIGHT AS ARRANGED")).toBeUndefined();
  });
});

describe("normalizePermission", () => {
  test.each([
    ["ALLOWED", "allowed"],
    ["PERMITTED", "allowed"],
    ["NOT ALLOWED", "not allowed"],
    ["PROHIBITED", "not allowed"],
    ["NOT PERMITTED", "not allowed"],
    ["CONDITIONAL", "conditional"],
    ["allowed", "allowed"],
  ])("%s → %s", (text, value) => {
    expect(normalizePermission(text)).toBe(value);
  });
  test("unknown wording", () => {
    expect(normalizePermission("SEE 47A")).toBeUndefined();
  });
});

describe("ports and text", () => {
  test("ports keep their printed form", () => {
    expect(normalizePort("  BUSAN,   KOREA , ")).toBe("BUSAN, KOREA");
    expect(normalizePort("5. Rotterdam")).toBe("Rotterdam");
    expect(normalizePort("---")).toBeUndefined();
  });
  test("text is collapsed", () => {
    expect(collapseText(" A \n  B\tC ")).toBe("A B C");
    expect(cleanValue(": INV-1 ;")).toBe("INV-1");
  });
});
