import { describe, expect, test } from "vitest";
import { buildDateContext, findDates, parseDate } from "./date";

const DAY_FIRST = { dayFirst: true };
const MONTH_FIRST = { dayFirst: false };

describe("parseDate", () => {
  test.each([
    ["2024-03-15", "2024-03-15"],
    ["2023/11/8", "2023-11-08"],
    ["15/03/2024", "2024-03-15"],
    ["15.03.2024", "2024-03-15"],
    ["15-MAR-2024", "2024-03-15"],
    ["15 March 2024", "2024-03-15"],
    ["15th March 2024", "2024-03-15"],
    ["1st of May, 2024", "2024-05-01"],
    ["March 15, 2024", "2024-03-15"],
    ["MAR 15 2024", "2024-03-15"],
    ["DEC. 22, 2023", "2023-12-22"],
    ["26.OCTOBER.2016", "2016-10-26"],
    ["28-NOV-25", "2025-11-28"],
    ["20-Sep-2025", "2025-09-20"],
    ["Sept 3rd, 2024", "2024-09-03"],
    ["20240715", "2024-07-15"],
    ["SANTOS, AUGUST 13, 2024", "2024-08-13"],
    ["DATE LADEN ON BOARD: 11 DEC 2023", "2023-12-11"],
    ["29/02/2024", "2024-02-29"],
  ])("%s → %s", (text, iso) => {
    expect(parseDate(text, DAY_FIRST)).toBe(iso);
  });

  test("SWIFT YYMMDD only when compact dates are expected", () => {
    expect(parseDate("240315", DAY_FIRST, { compact: true })).toBe("2024-03-15");
    expect(parseDate("240229BENEFICIARY COUNTRY", DAY_FIRST, { compact: true })).toBe("2024-02-29");
    expect(parseDate("240315", DAY_FIRST)).toBeUndefined();
  });

  test.each(["31/02/2024", "2024-13-01", "30 FEB 2024", "29/02/2023", "123456789", "no date here", "00/00/0000"])(
    "rejects %s",
    (text) => {
      expect(parseDate(text, DAY_FIRST, { compact: true })).toBeUndefined();
    },
  );

  test("ambiguous numeric dates follow the context", () => {
    expect(parseDate("03/04/2024", DAY_FIRST)).toBe("2024-04-03");
    expect(parseDate("03/04/2024", MONTH_FIRST)).toBe("2024-03-04");
    expect(parseDate("03/15/2024", MONTH_FIRST)).toBe("2024-03-15");
    expect(parseDate("03/15/2024", DAY_FIRST)).toBeUndefined();
  });

  test("does not read a date inside a longer number or reference", () => {
    expect(parseDate("REF 12345/06/2024", DAY_FIRST)).toBeUndefined();
    expect(parseDate("INV-2024-0812", DAY_FIRST)).toBeUndefined();
  });

  test("a reference that reads as a date is no date: digits glued to its letters or joined by its separator", () => {
    expect(parseDate("BKG20240315", DAY_FIRST)).toBeUndefined();
    expect(parseDate("INV-2024-03-15", DAY_FIRST)).toBeUndefined();
    expect(parseDate("SC/12/05/24", DAY_FIRST)).toBeUndefined();
    expect(parseDate("INV-2024-03-15 DATED 16/03/2024", DAY_FIRST)).toBe("2024-03-16");
    expect(parseDate("ABIDJAN,15.03.2024", DAY_FIRST)).toBe("2024-03-15");
  });
});

describe("findDates", () => {
  test("finds every date with its position", () => {
    const text = "ISSUED 15/03/2024 SHIPPED ON BOARD 12 MAR 2024";
    const found = findDates(text, DAY_FIRST);
    expect(found.map((d) => d.iso)).toEqual(["2024-03-15", "2024-03-12"]);
    expect(text.slice(found[1]!.index, found[1]!.index + found[1]!.length)).toBe("12 MAR 2024");
  });
});

describe("buildDateContext", () => {
  test("a first part above 12 means day-first", () => {
    expect(buildDateContext(["Date: 03/04/2024", "Shipped 25/03/2024"]).dayFirst).toBe(true);
  });
  test("a second part above 12 means month-first", () => {
    expect(buildDateContext(["Date: 03/04/2024", "Shipped 03/25/2024"]).dayFirst).toBe(false);
  });
  test("defaults to day-first when nothing decides", () => {
    expect(buildDateContext(["03/04/2024", "2024-03-25"]).dayFirst).toBe(true);
  });
});
