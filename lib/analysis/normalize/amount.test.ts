import { describe, expect, test } from "vitest";
import { findNumbers, parseAmount, parseNumber } from "./amount";
import { normalizeCurrency } from "./currency";

describe("parseAmount", () => {
  test.each([
    ["1,234.56", 1234.56],
    ["1.234,56", 1234.56],
    ["1 234,56", 1234.56],
    ["1'234.56", 1234.56],
    ["USD 1,234.56", 1234.56],
    ["#60,465.00#", 60465],
    ["USD149,300.62", 149300.62],
    ["EUR 54.379,19", 54379.19],
    ["12,500", 12500],
    ["1,234,567", 1234567],
    ["1.234.567,8", 1234567.8],
    ["12,5", 12.5],
    ["97.00", 97],
    ["US$ 93,750.00", 93750],
    ["250", 250],
  ])("%s → %d", (text, value) => {
    expect(parseAmount(text)).toBe(value);
  });

  test("no number, no amount", () => {
    expect(parseAmount("USD")).toBeUndefined();
    expect(parseAmount("")).toBeUndefined();
  });

  test("columns separated by spaces stay separate numbers", () => {
    expect(findNumbers("5   250   6,250.000").map((n) => n.value)).toEqual([5, 250, 6250]);
  });

  test("parseNumber refuses words", () => {
    expect(parseNumber("12a")).toBeUndefined();
  });
});

describe("normalizeCurrency", () => {
  test.each([
    ["USD", "USD"],
    ["usd 12.00", "USD"],
    ["USD (US DOLLAR)", "USD"],
    ["US$ 93,750.00", "USD"],
    ["U.S.DOLLARS FOUR HUNDRED", "USD"],
    ["$ 12.00", "USD"],
    ["€ 1.234,56", "EUR"],
    ["EURO", "EUR"],
    ["£500", "GBP"],
    ["¥ 10000", "JPY"],
    ["RMB 5,000", "CNY"],
    ["UAE DIRHAMS", "AED"],
    ["HK$ 300", "HKD"],
  ])("%s → %s", (text, code) => {
    expect(normalizeCurrency(text)).toBe(code);
  });

  test("unknown three-letter words are not currencies", () => {
    expect(normalizeCurrency("THE SUM OF")).toBeUndefined();
  });
});
