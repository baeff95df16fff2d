/** Currencies as printed (codes, symbols, words) → ISO 4217 codes. */
import { allMatches } from "./matches";

const ISO_CODES = new Set(
  (
    "USD EUR GBP JPY CNY CHF CAD AUD NZD HKD SGD AED SAR QAR KWD BHD OMR JOD EGP INR PKR BDT LKR " +
    "IDR MYR THB VND PHP KRW TWD TRY RUB UAH PLN CZK HUF RON BGN SEK NOK DKK ISK ZAR NGN KES GHS " +
    "MAD TND DZD BRL ARS CLP COP PEN MXN UYU ILS IRR IQD ALL RSD MKD BAM KZT UZS"
  ).split(" "),
);

/** Words and symbols, most specific first (US$ before $). */
const NAMED: Array<[RegExp, string]> = [
  [/US\s*\$|U\.?S\.?\s*DOLLARS?|AMERICAN DOLLARS?/i, "USD"],
  [/HK\s*\$|HONG\s*KONG DOLLARS?/i, "HKD"],
  [/S\s*\$|SINGAPORE DOLLARS?/i, "SGD"],
  [/A\s*\$|AUSTRALIAN DOLLARS?/i, "AUD"],
  [/C\s*\$|CANADIAN DOLLARS?/i, "CAD"],
  [/\bEUROS?\b|€/i, "EUR"],
  [/POUNDS? STERLING|\bSTERLING\b|£/i, "GBP"],
  [/\bRMB\b|\bYUAN\b|RENMINBI|CN¥/i, "CNY"],
  [/\bYEN\b|¥/i, "JPY"],
  [/SWISS FRANCS?/i, "CHF"],
  [/\bDIRHAMS?\b/i, "AED"],
  [/SAUDI RIYALS?/i, "SAR"],
  [/\bRUPEES?\b|₹/i, "INR"],
  [/\bWON\b|₩/i, "KRW"],
  [/\bDOLLARS?\b|\$/i, "USD"],
];

const CODE_IN_TEXT = /(?<![A-Z])([A-Z]{3})(?![A-Z])/g;

/** The ISO 4217 code of the first currency named in `text`, or undefined. */
export function normalizeCurrency(text: string): string | undefined {
  const upper = text.toUpperCase();
  for (const m of allMatches(CODE_IN_TEXT, upper)) if (ISO_CODES.has(m[1]!)) return m[1];
  for (const [pattern, code] of NAMED) if (pattern.test(text)) return code;
  return undefined;
}
