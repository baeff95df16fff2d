/** Weights → kilograms ("12,741.000 KGS", "5,000 MT", "2,000 LBS"). */
import { convertWithUnit, type UnitTable } from "./unit-number";

const POUND_KG = 0.45359237;

const WEIGHT_UNITS: UnitTable = [
  [/^(?:KGS?|KGM|KILOS?|KILOGRAMM?E?S?|KILO)\b/i, 1],
  [/^(?:M\/?T|MTS|METRIC\s+TON(?:NE)?S?|TONNES?|TONS?|T)\b/i, 1000],
  [/^(?:LBS?|POUNDS?)\b/i, POUND_KG],
  [/^(?:G|GR|GRS|GRAMM?E?S?)\b(?!\.?\s*W)/i, 0.001],
];

/**
 * Kilograms from a weight as printed. Without a unit after the number,
 * `defaultUnitKg` (from a column header such as "Gross Weight (kg)") applies;
 * with neither, undefined.
 */
export function parseWeightKg(text: string, defaultUnitKg?: number, decimalComma = false): number | undefined {
  return convertWithUnit(text, WEIGHT_UNITS, defaultUnitKg, decimalComma);
}

/** Unit words a column header may name, whole words only ("Gross Wt (KGS)"). */
const HEADER_WEIGHT_UNITS = new Map<string, number>([
  ...["KG", "KGS", "KGM", "KILO", "KILOS"].map((u) => [u, 1] as [string, number]),
  ...["MT", "M/T", "MTS", "TONS", "TONNES"].map((u) => [u, 1000] as [string, number]),
  ...["LB", "LBS"].map((u) => [u, POUND_KG] as [string, number]),
]);

/** The kilogram factor of a unit named in a header ("Gross Weight (LBS)"), or undefined. */
export function weightUnitFactor(text: string): number | undefined {
  for (const word of text.toUpperCase().split(/[\s()[\],.:]+/)) {
    const factor = HEADER_WEIGHT_UNITS.get(word);
    if (factor !== undefined) return factor;
  }
  return undefined;
}
