import { describe, expect, it } from "vitest";
import { addressesEqual, f1, pairSplits, scoreCase, summarize, valuesEqual } from "@/bench/metrics";
import type { SplitResult } from "@/lib/analysis";

const invoice = (pages: number[], extracted: Record<string, unknown> = {}): SplitResult => ({ split: { document_type: "Commercial Invoice", pages }, extracted });
const bl = (pages: number[], extracted: Record<string, unknown> = {}): SplitResult => ({ split: { document_type: "Bill of Lading", pages }, extracted });

describe("valuesEqual", () => {
  it("compares strings without case or spacing differences", () => {
    expect(valuesEqual("MV Coral  Harmony", "mv coral harmony")).toBe(true);
    expect(valuesEqual("MERSIN", "MERSIN.")).toBe(true);
    expect(valuesEqual("MERSIN", "IZMIR")).toBe(false);
  });

  it("accepts numbers within half a percent", () => {
    expect(valuesEqual(24000, 24100)).toBe(true);
    expect(valuesEqual(24000, 24200)).toBe(false);
    expect(valuesEqual(0, 0)).toBe(true);
    expect(valuesEqual(5, "5")).toBe(false);
  });

  it("compares arrays as sets and objects key by key", () => {
    expect(valuesEqual(["A", "B"], ["b", "a"])).toBe(true);
    expect(valuesEqual(["A", "B"], ["A"])).toBe(false);
    expect(valuesEqual([{ name: "Moisture", value: 12.1, unit: "%" }], [{ name: "moisture", value: 12.1, unit: "%" }])).toBe(true);
    expect(valuesEqual([{ name: "Moisture", value: 12.1 }], [{ name: "Moisture", value: 13 }])).toBe(false);
  });
});

describe("addressesEqual", () => {
  it("reads the separators between an address's parts as spaces, and nothing else", () => {
    expect(addressesEqual("AM SANDTORKAI 48 20457 HAMBURG GERMANY", "AM SANDTORKAI 48, 20457 HAMBURG, GERMANY")).toBe(true);
    expect(addressesEqual("AM SANDTORKAI 48 20457 HAMBURG GERMANY", "AM SANDTORKAI 48 - 20457 HAMBURG - GERMANY")).toBe(true);
    expect(addressesEqual("PLOT 5 APAPA WHARF ROAD APAPA, LAGOS NIGERIA", "PLOT 5 APAPA WHARF ROAD; APAPA LAGOS NIGERIA")).toBe(true);
    expect(addressesEqual("AL-QUOZ 3 DUBAI", "AL QUOZ 3 DUBAI")).toBe(false);
    expect(addressesEqual("AM SANDTORKAI 48 20457 HAMBURG GERMANY", "AM SANDTORKAI 48 20457 HAMBURG")).toBe(false);
    expect(valuesEqual("AM SANDTORKAI 48 20457 HAMBURG GERMANY", "AM SANDTORKAI 48, 20457 HAMBURG, GERMANY")).toBe(false);
  });

  it("is used for address keys only", () => {
    const expected = [invoice([1], { seller_address: "AM SANDTORKAI 48 HAMBURG GERMANY", description_of_goods: "BLACK PEPPER WHOLE" })];
    const predicted = [invoice([1], { seller_address: "AM SANDTORKAI 48, HAMBURG, GERMANY", description_of_goods: "BLACK PEPPER, WHOLE" })];
    const score = scoreCase(expected, predicted);
    expect(score.keys["Commercial Invoice / seller_address"]).toEqual({ tp: 1, fp: 0, fn: 0 });
    expect(score.keys["Commercial Invoice / description_of_goods"]).toEqual({ tp: 0, fp: 1, fn: 1 });
  });
});

describe("f1", () => {
  it("is 1 when there is nothing to find and nothing found", () => {
    expect(f1({ tp: 0, fp: 0, fn: 0 })).toBe(1);
    expect(f1({ tp: 2, fp: 1, fn: 1 })).toBeCloseTo(2 / 3);
  });
});

describe("pairSplits", () => {
  it("pairs splits of one type by the largest page overlap, one to one", () => {
    const expected = [invoice([1, 2]), invoice([3])];
    const predicted = [invoice([1]), invoice([2, 3])];
    expect(pairSplits(expected, predicted)).toEqual([[0, 0], [1, 1]]);
    expect(pairSplits([invoice([1])], [bl([1])])).toEqual([]);
  });
});

describe("scoreCase", () => {
  it("scores a perfect prediction as perfect", () => {
    const expected = [invoice([1, 2], { invoice_number: "X-1", total_amount: 100 }), bl([3], { vessel: "A" })];
    const score = scoreCase(expected, structuredClone(expected));
    expect(score.pagesCorrect).toBe(3);
    expect(summarize([score])).toMatchObject({ pageAccuracy: 1, splitF1: 1, fieldF1: 1 });
  });

  it("counts a merged split as a miss of both and a false alarm, and pages by their type", () => {
    const expected = [invoice([1]), invoice([2])];
    const predicted = [invoice([1, 2])];
    const score = scoreCase(expected, predicted);
    expect(score.pagesCorrect).toBe(2);
    expect(score.splits["Commercial Invoice"]).toEqual({ tp: 0, fp: 1, fn: 2 });
  });

  it("counts wrong, missing and extra fields", () => {
    const expected = [invoice([1], { invoice_number: "X-1", total_amount: 100, currency: "USD" })];
    const predicted = [invoice([1], { invoice_number: "X-2", total_amount: 100, vessel: "B" })];
    const score = scoreCase(expected, predicted);
    // invoice_number wrong (fp + fn), total_amount right, currency missed, vessel invented
    expect(score.fields["Commercial Invoice"]).toEqual({ tp: 1, fp: 2, fn: 2 });
  });

  it("charges every field of an unmatched split", () => {
    const score = scoreCase([invoice([1], { a: 1, b: 2 })], [bl([1], { c: 3 })]);
    expect(score.pagesCorrect).toBe(0);
    expect(score.fields["Commercial Invoice"]).toEqual({ tp: 0, fp: 0, fn: 2 });
    expect(score.fields["Bill of Lading"]).toEqual({ tp: 0, fp: 1, fn: 0 });
    const summary = summarize([score]);
    expect(summary.pageAccuracy).toBe(0);
    expect(summary.splitF1).toBe(0);
    expect(summary.fieldF1).toBe(0);
  });
});

describe("summarize", () => {
  it("adds cases up per type", () => {
    const first = scoreCase([invoice([1], { a: 1 })], [invoice([1], { a: 1 })]);
    const second = scoreCase([bl([1], { b: "x" }), invoice([2])], [bl([1], { b: "y" })]);
    const summary = summarize([first, second]);
    expect(summary.pagesTotal).toBe(3);
    expect(summary.pageAccuracy).toBeCloseTo(2 / 3);
    expect(summary.splitsByType["Commercial Invoice"]).toEqual({ tp: 1, fp: 0, fn: 1 });
    expect(summary.fieldsByType["Bill of Lading"]).toEqual({ tp: 0, fp: 1, fn: 1 });
    expect(summary.splitF1).toBeCloseTo(f1({ tp: 2, fp: 0, fn: 1 }));
  });
});
