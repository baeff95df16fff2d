import { describe, expect, it } from "vitest";
import { allMatches } from "./matches";

const asPlain = (matches: Iterable<RegExpMatchArray>) => [...matches].map((m) => ({ text: [...m], index: m.index, groups: m.groups }));

describe("allMatches", () => {
  it("finds what matchAll finds, and leaves the pattern reusable", () => {
    const cases: Array<[RegExp, string]> = [
      [/(\d+)-(\d+)/g, "1-2 and 30-40, 5-6"],
      [/(?<word>[A-Z]+)/g, "HS CODE 1207.40 NET 12"],
      [/x*/g, "axxb"],
      [/(?:)/gu, "a😀b"],
      [/\d/g, "no digits"],
    ];
    for (const [pattern, text] of cases) {
      expect(asPlain(allMatches(pattern, text))).toEqual(asPlain(text.matchAll(pattern)));
      expect(pattern.lastIndex).toBe(0);
      expect(asPlain(allMatches(pattern, text))).toEqual(asPlain(text.matchAll(pattern)));
    }
  });

  it("refuses a pattern without the g flag, as matchAll does", () => {
    expect(() => allMatches(/a/, "a")).toThrow(TypeError);
  });
});
