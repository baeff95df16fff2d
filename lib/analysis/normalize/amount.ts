/**
 * Amounts as printed → numbers: 1,234.56 / 1.234,56 / 1 234,56 / 1'234.56,
 * with or without a currency, SWIFT's #60,465.00# or "USD149,300.62".
 */
import { allMatches } from "./matches";

/** A numeric token: digits with optional thousands groups (, . ' or space) and a decimal part. */
const NUMBER_TOKEN = /(?<![\d.,])[-−]?\d{1,3}(?:(?:[,.'’\u00a0\u202f]| (?=\d{3}(?:\D|$)))\d{3})+(?:[.,]\d+)?(?![\d])|(?<![\d.,])[-−]?\d+(?:[.,]\d+)?(?!\d)/g;

export interface NumberMatch {
  value: number;
  index: number;
  length: number;
}

/**
 * Reads one numeric token. The last of several different separators is the
 * decimal one; a lone separator followed by exactly three digits groups
 * thousands when it is a comma (English convention, the usual one in trade
 * documents) and is decimal when it is a point; `decimalComma` (a document
 * printing 1.234,56) reverses both.
 */
export function parseNumber(token: string, decimalComma = false): number | undefined {
  let text = token.trim().replace(/[−]/g, "-").replace(/[\s'’\u00a0\u202f]/g, "");
  if (!/^-?\d[\d.,]*$/.test(text)) return undefined;
  const lastComma = text.lastIndexOf(",");
  const lastPoint = text.lastIndexOf(".");
  let decimal: "," | "." | undefined;
  if (lastComma >= 0 && lastPoint >= 0) decimal = lastComma > lastPoint ? "," : ".";
  else if (lastComma >= 0) {
    const single = text.indexOf(",") === lastComma;
    decimal = single && (decimalComma || text.length - lastComma - 1 !== 3) ? "," : undefined;
  } else if (lastPoint >= 0) {
    const single = text.indexOf(".") === lastPoint;
    decimal = single && !(decimalComma && text.length - lastPoint - 1 === 3) ? "." : undefined;
  }
  const thousands = decimal === "," ? /\./g : decimal === "." ? /,/g : /[.,]/g;
  text = text.replace(thousands, "");
  if (decimal === ",") text = text.replace(",", ".");
  const value = Number(text);
  return Number.isFinite(value) ? value : undefined;
}

/** Every number in `text`, left to right. */
export function findNumbers(text: string, decimalComma = false): NumberMatch[] {
  const found: NumberMatch[] = [];
  for (const m of allMatches(NUMBER_TOKEN, text)) {
    const value = parseNumber(m[0], decimalComma);
    if (value !== undefined) found.push({ value, index: m.index, length: m[0].length });
  }
  return found;
}

/** The first amount in `text` ("USD 1,234.56", "#60,465.00#", "1.234,56 EUR"). */
export function parseAmount(text: string, decimalComma = false): number | undefined {
  return findNumbers(text.replace(/[#*]/g, " ").replace(/([A-Za-z$€£¥])(?=\d)/g, "$1 "), decimalComma)[0]?.value;
}

const DECIMAL_COMMA_NUMBER = /(?<![\d.,])\d{1,3}(?:\.\d{3})+,\d{1,3}(?![\d.,])/;
const DECIMAL_POINT_NUMBER = /(?<![\d.,])\d{1,3}(?:,\d{3})+\.\d{1,3}(?![\d.,])/;

/** True when the texts print numbers the continental way (1.234,56) and never the English way (1,234.56). */
export function detectDecimalComma(texts: Iterable<string>): boolean {
  let comma = false;
  for (const text of texts) {
    if (DECIMAL_POINT_NUMBER.test(text)) return false;
    if (DECIMAL_COMMA_NUMBER.test(text)) comma = true;
  }
  return comma;
}
