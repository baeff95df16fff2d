/** A number followed by a unit, converted by the unit's factor. */
import { findNumbers } from "./amount";

export type UnitTable = ReadonlyArray<readonly [RegExp, number]>;

/** Results are rounded to this many decimals to hide floating-point noise. */
const DECIMALS = 3;

function round(value: number): number {
  const factor = 10 ** DECIMALS;
  return Math.round(value * factor) / factor;
}

/**
 * The first number in `text` followed by a unit of `units`, times that unit's
 * factor; without any such unit, the first number times `defaultFactor` when given.
 */
/** "12,705. 80 KGS": a text layer may break a number after its decimal point. */
const BROKEN_DECIMAL = /(\d[.,])\s(\d{1,3})(?=\s*[A-Za-z])/g;

export function convertWithUnit(text: string, units: UnitTable, defaultFactor?: number, decimalComma = false): number | undefined {
  text = text.replace(BROKEN_DECIMAL, "$1$2");
  const numbers = findNumbers(text, decimalComma);
  for (const number of numbers) {
    const rest = text.slice(number.index + number.length).replace(/^[\s.]*/, "");
    const unit = units.find(([pattern]) => pattern.test(rest));
    if (unit) return round(number.value * unit[1]);
  }
  const first = numbers[0];
  return first && defaultFactor !== undefined ? round(first.value * defaultFactor) : undefined;
}
