/** Quantities with their unit ("10,000 KGS", "500 CARTONS"), package counts and counts in words. */
import { findNumbers } from "./amount";

export interface Quantity {
  value: number;
  unit: string;
}

/** A unit is a word (with optional dots, slashes or a plural "(S)") right after the number. */
const UNIT_AFTER = /^\s*((?:METRIC\s+TONS?|M\/T|[A-Za-z][A-Za-z.]*(?:\(S\))?))/i;
const NOT_A_UNIT = /^(?:X|OF|AND|AT|PER|TO|ON|IN|DAYS?)$/i;

/** "10,000 KGS" → {10000, "KGS"}; "5,000 PCS" → {5000, "PCS"}; undefined without a unit. */
export function parseQuantity(text: string, decimalComma = false): Quantity | undefined {
  for (const number of findNumbers(text, decimalComma)) {
    const m = UNIT_AFTER.exec(text.slice(number.index + number.length));
    if (m && !NOT_A_UNIT.test(m[1]!)) return { value: number.value, unit: m[1]!.replace(/\.$/, "").replace(/\s+/g, " ") };
  }
  return undefined;
}

/** Kinds of packages; the printed form (plural, abbreviation, "(S)") is kept. */
const PACKAGE_WORDS =
  "PACKAGE\\(S\\)|PACKAGES?|PKG\\(S\\)|PKGS?|CARTONS?|CTNS?|CASES?|BAGS?|JUMBO BAGS|BIG BAGS|SACKS?|BALES?|BOXES|BOX|" +
  "PALLETS?|PLTS?|SKIDS?|DRUMS?|BARRELS?|CRATES?|ROLLS?|REELS?|BUNDLES?|COILS?|PIECES|PCS|UNITS|TINS|CANS|" +
  "IBCS?|TOTES?|CONTAINERS?|BULK BAGS|FLEXIBAGS?|CARBOYS?|PAILS?|JARS?|BOTTLES|TRAYS|CASKS?|LOTS?";
const PACKAGES_PATTERN = new RegExp(
  `(?<![\\d.,])(\\d{1,3}(?:[,.\\u00a0]\\d{3})+|\\d+)\\s*(?:\\(\\s*[A-Z\\s-]+\\)\\s*)?(?:X\\s+)?((?:(?:JUTE|PP|POLY|PAPER|WOVEN|PLASTIC|WOODEN|STEEL|FIBRE|FIBER|CARDBOARD|MULTIWALL|NEW|BIG|JUMBO|BULK|FLEXIBLE)\\s+){0,2}(?:${PACKAGE_WORDS}))(?![A-Z])`,
  "i",
);

export interface Packages {
  count: number;
  type: string;
  index: number;
  length: number;
}

/** "1,200 BAGS" → {1200, "BAGS"}; "11 PACKAGE(S)"; "40 PALLETS". */
export function parsePackages(text: string): Packages | undefined {
  const m = PACKAGES_PATTERN.exec(text);
  if (!m) return undefined;
  return { count: Number(m[1]!.replace(/\D/g, "")), type: m[2]!.replace(/\s+/g, " "), index: m.index, length: m[0].length };
}

const NUMBER_WORDS = [
  "ZERO", "ONE", "TWO", "THREE", "FOUR", "FIVE", "SIX", "SEVEN", "EIGHT", "NINE", "TEN", "ELEVEN", "TWELVE",
];
const WORD_PATTERN = new RegExp(`\\b(${NUMBER_WORDS.join("|")})\\b`, "i");

/** A small count written "THREE (3)", "3/3", "3 (THREE)", "THREE" or "3". */
export function parseCount(text: string): number | undefined {
  const fraction = /(?<!\d)(\d{1,2})\s*\/\s*\d{1,2}(?!\d)/.exec(text);
  if (fraction) return Number(fraction[1]);
  const digits = /(?<![\d.,])(\d{1,2})(?![\d.,])/.exec(text);
  if (digits) return Number(digits[1]);
  const word = WORD_PATTERN.exec(text);
  return word ? NUMBER_WORDS.indexOf(word[1]!.toUpperCase()) : undefined;
}
