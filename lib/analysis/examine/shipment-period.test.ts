import { describe, expect, it } from "vitest";
import { readShipmentPeriod } from "./shipment-period";

const ISSUED = "2026-03-02";

describe("readShipmentPeriod: :44D: as UCP 600 art. 3 reads it", () => {
  it.each([
    ["FROM 01 MAR 2026 TO 31 MAR 2026", { from: "2026-03-01", to: "2026-03-31" }],
    ["BETWEEN 260301 AND 260331", { from: "2026-03-01", to: "2026-03-31" }],
    ["01.04.2026 - 15.04.2026", { from: "2026-04-01", to: "2026-04-15" }],
    ["FROM 1ST TO 15TH APRIL 2026", { from: "2026-04-01", to: "2026-04-15" }],
    ["MARCH 2026", { from: "2026-03-01", to: "2026-03-31" }],
    ["DURING MARCH/APRIL 2026", { from: "2026-03-01", to: "2026-04-30" }],
    ["DECEMBER 2026/JANUARY 2027", { from: "2026-12-01", to: "2027-01-31" }],
    ["FEBRUARY 2028", { from: "2028-02-01", to: "2028-02-29" }],
  ])("reads the range %s, both ends included", (text, period) => {
    expect(readShipmentPeriod(text, ISSUED)).toEqual(period);
  });

  it.each([
    ["FIRST HALF OF APRIL 2026", { from: "2026-04-01", to: "2026-04-15" }],
    ["2ND HALF OF APRIL 2026", { from: "2026-04-16", to: "2026-04-30" }],
    ["BEGINNING OF APRIL 2026", { from: "2026-04-01", to: "2026-04-10" }],
    ["MIDDLE OF APRIL 2026", { from: "2026-04-11", to: "2026-04-20" }],
    ["END OF FEBRUARY 2026", { from: "2026-02-21", to: "2026-02-28" }],
  ])("reads the part of a month %s as art. 3 defines it", (text, period) => {
    expect(readShipmentPeriod(text, ISSUED)).toEqual(period);
  });

  it("reads 'on or about' as five days either way", () => {
    expect(readShipmentPeriod("ON OR ABOUT 15 APRIL 2026", ISSUED)).toEqual({ from: "2026-04-10", to: "2026-04-20" });
  });

  it("bounds only the end after LATEST / NOT LATER THAN, only the start after FROM / NOT BEFORE", () => {
    expect(readShipmentPeriod("LATEST 2ND HALF OF APRIL", ISSUED)).toEqual({ to: "2026-04-30" });
    expect(readShipmentPeriod("NOT LATER THAN 30 APRIL 2026", ISSUED)).toEqual({ to: "2026-04-30" });
    expect(readShipmentPeriod("NOT BEFORE 01 APRIL 2026", ISSUED)).toEqual({ from: "2026-04-01" });
  });

  it("excludes the date after 'before' and 'after' (art. 3)", () => {
    expect(readShipmentPeriod("BEFORE 30 APRIL 2026", ISSUED)).toEqual({ to: "2026-04-29" });
    expect(readShipmentPeriod("AFTER 01 APRIL 2026", ISSUED)).toEqual({ from: "2026-04-02" });
  });

  it("takes a month without a year in the first such month from the credit's issue", () => {
    expect(readShipmentPeriod("SECOND HALF OF APRIL", "2026-03-02")).toEqual({ from: "2026-04-16", to: "2026-04-30" });
    expect(readShipmentPeriod("FEBRUARY", "2026-11-20")).toEqual({ from: "2027-02-01", to: "2027-02-28" });
    expect(readShipmentPeriod("APRIL")).toBeUndefined();
  });

  it("does not guess at words art. 3 does not define, or at nonsense", () => {
    for (const text of ["EARLY APRIL 2026", "WEEKLY SHIPMENTS", "AS SOON AS POSSIBLE", "", "FROM 30 APR 2026 TO 01 APR 2026"]) {
      expect(readShipmentPeriod(text, ISSUED), text).toBeUndefined();
    }
  });
});
