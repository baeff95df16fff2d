/** Volumes → cubic metres ("9.000 CBM", "7.215 M3", "250 CFT"). */
import { convertWithUnit, type UnitTable } from "./unit-number";

const CUBIC_FOOT_M3 = 0.028316846592;

const VOLUME_UNITS: UnitTable = [
  [/^(?:CBM|M3|M³|CU\.?\s*M\.?|CUBIC\s+MET(?:RE|ER)S?)(?![A-Z0-9])/i, 1],
  [/^(?:CFT|CU\.?\s*FT\.?|CUBIC\s+FEET|FT3|FT³)(?![A-Z0-9])/i, CUBIC_FOOT_M3],
];

/** Cubic metres from a volume as printed; `defaultUnitCbm` applies when no unit follows the number. */
export function parseVolumeCbm(text: string, defaultUnitCbm?: number, decimalComma = false): number | undefined {
  return convertWithUnit(text, VOLUME_UNITS, defaultUnitCbm, decimalComma);
}
