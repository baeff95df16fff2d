/**
 * Amounts as printed → numbers: 1,234.56 / 1.234,56 / 1 234,56 / 1'234.56,
 * with or without a currency, SWIFT's #60,465.00# or "USD149,300.62".
 */

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
 * documents) and is decimal when it is a point.
 */
export function parseNumber(token: string): number | undefined {
  let text = token.trim().replace(/[−]/g, "-").replace(/[\s'’\u00a0\u202f]/g, "");
  if (!/^-?\d[\d.,]*$/.test(text)) return undefined;
  const lastComma = text.lastIndexOf(",");
  const lastPoint = text.lastIndexOf(".");
  let decimal: "," | "." | undefined;
  if (lastComma >= 0 && lastPoint >= 0) decimal = lastComma > lastPoint ? "," : ".";
  else if (lastComma >= 0) {
    const single = text.indexOf(",") === lastComma;
    decimal = single && text.length - lastComma - 1 !== 3 ? "," : undefined;
  } else if (lastPoint >= 0) {
    decimal = text.indexOf(".") === lastPoint ? "." : undefined;
  }
  const thousands = decimal === "," ? /\./g : decimal === "." ? /,/g : /[.,]/g;
  text = text.replace(thousands, "");
  if (decimal === ",") text = text.replace(",", ".");
  const value = Number(text);
  return Number.isFinite(value) ? value : undefined;
}

/** Every number in `text`, left to right. */
export function findNumbers(text: string): NumberMatch[] {
  const found: NumberMatch[] = [];
  for (const m of text.matchAll(NUMBER_TOKEN)) {
    const value = parseNumber(m[0]);
    if (value !== undefined) found.push({ value, index: m.index, length: m[0].length });
  }
  return found;
}

/** The first amount in `text` ("USD 1,234.56", "#60,465.00#", "1.234,56 EUR"). */
export function parseAmount(text: string): number | undefined {
  return findNumbers(text.replace(/[#*]/g, " ").replace(/([A-Za-z$€£¥])(?=\d)/g, "$1 "))[0]?.value;
}
