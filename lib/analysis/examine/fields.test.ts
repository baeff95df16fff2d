import { describe, expect, it } from "vitest";
import { addDays, daysBetween, isIsoDate, readDate } from "./fields";

describe("isIsoDate: a real calendar day written YYYY-MM-DD", () => {
  it("accepts real days, leap days included", () => {
    for (const date of ["2026-01-01", "2026-12-31", "2028-02-29", "2000-02-29", "2030-04-30"]) expect(isIsoDate(date), date).toBe(true);
  });

  it("refuses impossible days that Date.parse would roll over", () => {
    for (const date of ["2030-02-30", "2030-02-29", "1900-02-29", "2030-04-31", "2030-13-01", "2030-00-10", "2030-01-00", "2030-01-32"]) {
      expect(isIsoDate(date), date).toBe(false);
    }
  });

  it("refuses other writings", () => {
    for (const date of ["2030-1-01", "01/02/2030", "2030-01-01T00:00:00Z", " 2030-01-01", "", "20300101"]) expect(isIsoDate(date), date).toBe(false);
  });

  it("makes readDate treat an impossible extracted date as absent", () => {
    expect(readDate({ d: "2030-02-30" }, "d")).toBeUndefined();
    expect(readDate({ d: "2030-02-28" }, "d")).toBe("2030-02-28");
  });

  it("counts and adds calendar days across month ends", () => {
    expect(daysBetween("2026-02-20", "2026-03-13")).toBe(21);
    expect(addDays("2026-02-20", 21)).toBe("2026-03-13");
  });
});
