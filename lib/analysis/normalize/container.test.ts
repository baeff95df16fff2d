import { describe, expect, test } from "vitest";
import {
  containerCheckDigit,
  findContainerNumbers,
  isValidContainerNumber,
  normalizeContainerNumber,
  normalizeSealNumber,
} from "./container";

describe("ISO 6346 container numbers", () => {
  test("computes the check digit of the standard's example", () => {
    expect(containerCheckDigit("CSQU305438")).toBe(3);
    expect(isValidContainerNumber("CSQU3054383")).toBe(true);
  });

  test.each(["MSCU 123456-7", "MSCU1234567", "MSCU-123456-7", "mscu 123456 7", "MSCU 123456 (7)"])(
    "reads %s",
    (text) => {
      const valid = `MSCU123456${containerCheckDigit("MSCU123456")}`;
      const printed = text.replace(/7\)?$/, (m) => m.replace("7", valid.slice(-1)));
      expect(normalizeContainerNumber(printed)).toBe(valid);
    },
  );

  test("rejects a wrong check digit and malformed numbers", () => {
    expect(isValidContainerNumber("CSQU3054384")).toBe(false);
    expect(normalizeContainerNumber("CSQU 305438-4")).toBeUndefined();
    expect(normalizeContainerNumber("CSQX3054383")).toBeUndefined();
    expect(normalizeContainerNumber("CSQU305438")).toBeUndefined();
  });

  test("finds several in running text, in order", () => {
    const tghu = `TGHU123456${containerCheckDigit("TGHU123456")}`;
    const text = `CNTR: CSQU3054383 / TGHU 123456-${tghu.slice(-1)} and CSQU3054384`;
    expect(findContainerNumbers(text).map((c) => c.number)).toEqual(["CSQU3054383", tghu]);
  });
});

describe("normalizeSealNumber", () => {
  test("compacts as printed", () => {
    expect(normalizeSealNumber("ml 123 456")).toBe("ML123456");
    expect(normalizeSealNumber("3928377")).toBe("3928377");
  });
  test("refuses words", () => {
    expect(normalizeSealNumber("SEAL")).toBeUndefined();
  });
});
