/**
 * Dates as printed on trade documents → ISO 8601 (YYYY-MM-DD). Numeric dates
 * like 03/04/2024 are read day-first or month-first according to a
 * `DateContext` built from every date on the document, since one document
 * keeps one convention.
 */
import { allMatches } from "./matches";

export interface DateContext {
  dayFirst: boolean;
}

/** Trade documents are mostly day-first (UCP practice outside the US). */
export const DEFAULT_DATE_CONTEXT: DateContext = { dayFirst: true };

export interface DateOptions {
  /** Accept compact SWIFT YYMMDD (six digits), as in MT700 fields 31C, 31D, 44C. */
  compact?: boolean;
}

export interface DateMatch {
  iso: string;
  index: number;
  length: number;
}

/** Two-digit years below this pivot are 20xx, the rest 19xx. */
const TWO_DIGIT_YEAR_PIVOT = 70;

const MONTH_NAMES =
  "JAN(?:UARY)?|FEB(?:RUARY)?|MAR(?:CH)?|APR(?:IL)?|MAY|JUNE?|JULY?|AUG(?:UST)?|SEP(?:T(?:EMBER)?)?|OCT(?:OBER)?|NOV(?:EMBER)?|DEC(?:EMBER)?";
const ORDINAL = "(?:ST|ND|RD|TH)?";
const YEAR = "(\\d{4}|\\d{2})(?!\\d)";

const PATTERNS = {
  iso: /(?<!\d)(\d{4})[-/.](\d{1,2})[-/.](\d{1,2})(?!\d)/y,
  numeric: /(?<!\d)(\d{1,2})[-/.](\d{1,2})[-/.](\d{4}|\d{2})(?![\d/])/y,
  dayMonth: new RegExp(
    `(?<!\\d)(\\d{1,2})${ORDINAL}[\\s\\-./]*(?:OF\\s+)?(${MONTH_NAMES})(?![A-Z])\\.?[\\s\\-./,']*${YEAR}`,
    "iy",
  ),
  monthDay: new RegExp(`(?<![A-Z])(${MONTH_NAMES})\\.?[\\s\\-.]*(\\d{1,2})${ORDINAL}(?!\\d)[\\s,.\\-]*${YEAR}`, "iy"),
  compact8: /(?<!\d)((?:19|20)\d{2})(\d{2})(\d{2})(?!\d)/y,
  compact6: /(?<!\d)(\d{2})(\d{2})(\d{2})(?!\d)/y,
};

/** Characters where a date may start: a digit or a letter (month name). */
const START = /[0-9A-Za-z]/;

function monthNumber(name: string): number {
  const key = name.slice(0, 3).toUpperCase();
  return "JANFEBMARAPRMAYJUNJULAUGSEPOCTNOVDEC".indexOf(key) / 3 + 1;
}

function fullYear(text: string): number {
  const year = Number(text);
  if (text.length === 4) return year;
  return year < TWO_DIGIT_YEAR_PIVOT ? 2000 + year : 1900 + year;
}

/** YYYY-MM-DD when the parts make a real calendar date, else undefined. */
function toIsoDate(year: number, month: number, day: number): string | undefined {
  if (month < 1 || month > 12 || day < 1 || day > 31) return undefined;
  const date = new Date(Date.UTC(year, month - 1, day));
  if (date.getUTCMonth() !== month - 1 || date.getUTCDate() !== day) return undefined;
  return date.toISOString().slice(0, 10);
}

function matchAt(text: string, at: number, context: DateContext, options: DateOptions): DateMatch | undefined {
  const tryPattern = (re: RegExp, toIso: (m: RegExpExecArray) => string | undefined): DateMatch | undefined => {
    re.lastIndex = at;
    const m = re.exec(text);
    if (!m) return undefined;
    const iso = toIso(m);
    return iso ? { iso, index: at, length: m[0].length } : undefined;
  };
  return (
    tryPattern(PATTERNS.iso, (m) => toIsoDate(Number(m[1]), Number(m[2]), Number(m[3]))) ??
    tryPattern(PATTERNS.numeric, (m) => {
      const [a, b, y] = [Number(m[1]), Number(m[2]), fullYear(m[3]!)];
      return context.dayFirst ? toIsoDate(y, b, a) : toIsoDate(y, a, b);
    }) ??
    tryPattern(PATTERNS.dayMonth, (m) => toIsoDate(fullYear(m[3]!), monthNumber(m[2]!), Number(m[1]))) ??
    tryPattern(PATTERNS.monthDay, (m) => toIsoDate(fullYear(m[3]!), monthNumber(m[1]!), Number(m[2]))) ??
    tryPattern(PATTERNS.compact8, (m) => toIsoDate(Number(m[1]), Number(m[2]), Number(m[3]))) ??
    (options.compact
      ? tryPattern(PATTERNS.compact6, (m) => toIsoDate(fullYear(m[1]!), Number(m[2]), Number(m[3])))
      : undefined)
  );
}

/**
 * Digits glued to letters ("BKG20240315"), or joined to them by a reference's
 * separator ("INV-2024-03-15", "SC/12/05/24"), are part of a reference that
 * happens to read as a date, never a date.
 */
function gluedToReference(text: string, at: number): boolean {
  const before = text[at - 1];
  if (before === undefined) return false;
  if (/\p{L}/u.test(before)) return true;
  return /[-/.]/.test(before) && at >= 2 && /\p{L}/u.test(text[at - 2]!);
}

/** Every date in `text`, left to right, never overlapping. */
export function findDates(
  text: string,
  context: DateContext = DEFAULT_DATE_CONTEXT,
  options: DateOptions = {},
): DateMatch[] {
  const found: DateMatch[] = [];
  for (let at = 0; at < text.length; at++) {
    if (!START.test(text[at]!)) continue;
    if (at > 0 && /[0-9A-Za-z]/.test(text[at - 1]!) && /[0-9]/.test(text[at]!) === /[0-9]/.test(text[at - 1]!)) continue;
    if (/[0-9]/.test(text[at]!) && gluedToReference(text, at)) continue;
    const match = matchAt(text, at, context, options);
    if (match) {
      found.push(match);
      at += match.length - 1;
    }
  }
  return found;
}

/** The first date in `text` as YYYY-MM-DD, or undefined (impossible dates like 31/02 are refused). */
export function parseDate(
  text: string,
  context: DateContext = DEFAULT_DATE_CONTEXT,
  options: DateOptions = {},
): string | undefined {
  return findDates(text, context, options)[0]?.iso;
}

const NUMERIC_DATE = /(?<!\d)(\d{1,2})[-/.](\d{1,2})[-/.](?:\d{4}|\d{2})(?![\d/])/g;

/**
 * The document's numeric date convention: a first part above 12 proves
 * day-first, a second part above 12 proves month-first; day-first otherwise.
 */
export function buildDateContext(texts: Iterable<string>): DateContext {
  let dayFirstSeen = false;
  let monthFirstSeen = false;
  for (const text of texts) {
    for (const m of allMatches(NUMERIC_DATE, text)) {
      if (Number(m[1]) > 12) dayFirstSeen = true;
      else if (Number(m[2]) > 12) monthFirstSeen = true;
    }
  }
  return { dayFirst: dayFirstSeen || !monthFirstSeen };
}
