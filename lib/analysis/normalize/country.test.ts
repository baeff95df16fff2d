import { describe, expect, test } from "vitest";
import { findCountryIn, normalizeCountry } from "./country";

describe("normalizeCountry", () => {
  test.each([
    ["USA", "United States"],
    ["U.S.A.", "United States"],
    ["UNITED STATES OF AMERICA", "United States"],
    ["UK", "United Kingdom"],
    ["Great Britain", "United Kingdom"],
    ["UAE", "United Arab Emirates"],
    ["U.A.E.", "United Arab Emirates"],
    ["KOREA", "South Korea"],
    ["REPUBLIC OF KOREA", "South Korea"],
    ["Korea, Republic of", "South Korea"],
    ["P.R. CHINA", "China"],
    ["PRC", "China"],
    ["People's Republic of China", "China"],
    ["CN", "China"],
    ["Viet Nam", "Vietnam"],
    ["TÜRKİYE", "Turkey"],
    ["Côte d'Ivoire", "Côte d'Ivoire"],
    ["brazil", "Brazil"],
    ["the Netherlands", "Netherlands"],
    ["MADE IN JAPAN", "Japan"],
    ["KOREAN ORIGIN", "South Korea"],
  ])("%s → %s", (text, name) => {
    expect(normalizeCountry(text)).toBe(name);
  });

  test("refuses what is not a country", () => {
    expect(normalizeCountry("ROTTERDAM")).toBeUndefined();
    expect(normalizeCountry("")).toBeUndefined();
  });
});

describe("findCountryIn", () => {
  test("the last country of an address", () => {
    expect(findCountryIn("NO.88 KEJI SOUTH ROAD, SHENZHEN 518057, P.R. CHINA")).toBe("China");
    expect(findCountryIn("PO BOX 7721, SHARJAH, U.A.E.")).toBe("United Arab Emirates");
    expect(findCountryIn("GOODS ARE OF KOREAN ORIGIN")).toBe("South Korea");
  });
  test("ignores short codes inside text", () => {
    expect(findCountryIn("GOODS ARE IN BAGS TO BE SHIPPED")).toBeUndefined();
  });
});
