/**
 * A credit's shipment period (:44D:) as the first and last day on which
 * shipment complies, read as UCP 600 art. 3 says:
 * - "to", "until", "till", "from" and "between" include the dates mentioned;
 *   "before" and "after" exclude them;
 * - "first half" / "second half" of a month: the 1st to the 15th / the 16th to the last day;
 * - "beginning" / "middle" / "end" of a month: the 1st to the 10th / the 11th to the 20th / the 21st to the last day;
 * - "on or about" a date: five calendar days before until five calendar days after, both included.
 * "LATEST <period>" (and "NOT LATER THAN", "BY") bound only the end: shipment before the period complies too.
 * A period without a year is taken in the first such month on or after the credit's issue date.
 */
import { DEFAULT_DATE_CONTEXT, findDates } from "../normalize/date";
import { addDays } from "./fields";

export interface ShipmentPeriod {
  /** First day of shipment that complies (YYYY-MM-DD), none when open. */
  from?: string;
  /** Last day of shipment that complies (YYYY-MM-DD), none when open. */
  to?: string;
}

/** UCP 600 art. 3: "on or about" is five calendar days either way. */
const ON_OR_ABOUT_DAYS = 5;

const MONTHS = ["JAN", "FEB", "MAR", "APR", "MAY", "JUN", "JUL", "AUG", "SEP", "OCT", "NOV", "DEC"];
const MONTH = String.raw`(JAN(?:UARY)?|FEB(?:RUARY)?|MAR(?:CH)?|APR(?:IL)?|MAY|JUNE?|JULY?|AUG(?:UST)?|SEPT?(?:EMBER)?|OCT(?:OBER)?|NOV(?:EMBER)?|DEC(?:EMBER)?)\.?`;
const YEAR = String.raw`(?:[\s,']*(\d{4}|'\d{2}))?`;
const ORDINAL = "(?:ST|ND|RD|TH)?";
/** Parts of a month (art. 3), as [first day, last day or 0 for the month's last]. */
const PARTS: [RegExp, number, number][] = [
  [/\b(?:FIRST|1ST)\s+HALF\b/, 1, 15],
  [/\b(?:SECOND|2ND)\s+HALF\b/, 16, 0],
  [/\bBEGINNING\b/, 1, 10],
  [/\bMIDDLE\b/, 11, 20],
  [/\bEND\b/, 21, 0],
];
const UPPER_ONLY = /\b(?:LATEST|NOT\s+LATER\s+THAN|NO\s+LATER\s+THAN|ON\s+OR\s+BEFORE|BY|UNTIL|TILL|UP\s+TO)\s*:?\s*$/;
const LOWER_ONLY = /\b(?:FROM|NOT\s+EARLIER\s+THAN|NO\s+EARLIER\s+THAN|ON\s+OR\s+AFTER|NOT\s+BEFORE)\s*:?\s*$/;
const BEFORE = /\bBEFORE\s*:?\s*$/;
const AFTER = /\bAFTER\s*:?\s*$/;
const ON_OR_ABOUT = /\bON\s+OR\s+ABOUT\s*:?\s*$/;
/** Words that make a period this reader does not know how to bound ("early", "late", "weekly"). */
const UNREAD = /\b(?:EARLY|LATE|WEEK|WEEKLY|MONTHLY|QUARTER|INSTAL?LMENTS?|EACH)\b/;

function monthIndex(name: string): number {
  return MONTHS.indexOf(name.slice(0, 3).toUpperCase());
}

function iso(year: number, month: number, day: number): string {
  return `${String(year).padStart(4, "0")}-${String(month + 1).padStart(2, "0")}-${String(day).padStart(2, "0")}`;
}

function lastDay(year: number, month: number): number {
  return new Date(Date.UTC(year, month + 1, 0)).getUTCDate();
}

function yearOf(written: string | undefined, month: number, reference: string | undefined): number | undefined {
  if (written) return written.startsWith("'") ? 2000 + Number(written.slice(1)) : Number(written);
  if (!reference) return undefined;
  const [y, m] = reference.split("-").map(Number) as [number, number];
  return month + 1 >= m ? y : y + 1;
}

/** Bounds from full dates: two dates are a range; one date is bounded by the words before it. */
function fromDates(text: string): ShipmentPeriod | undefined {
  const dates = findDates(text, DEFAULT_DATE_CONTEXT, { compact: true });
  if (!dates.length) return undefined;
  const first = dates[0]!;
  const before = text.slice(0, first.index);
  if (dates.length >= 2) {
    const last = dates[dates.length - 1]!;
    const between = text.slice(first.index + first.length, last.index);
    return {
      from: AFTER.test(before) ? addDays(first.iso, 1) : first.iso,
      to: BEFORE.test(between) ? addDays(last.iso, -1) : last.iso,
    };
  }
  if (ON_OR_ABOUT.test(before)) return { from: addDays(first.iso, -ON_OR_ABOUT_DAYS), to: addDays(first.iso, ON_OR_ABOUT_DAYS) };
  if (BEFORE.test(before) && !/\bNOT\s+BEFORE\s*:?\s*$/.test(before)) return { to: addDays(first.iso, -1) };
  if (AFTER.test(before) && !/\bON\s+OR\s+AFTER\s*:?\s*$/.test(before)) return { from: addDays(first.iso, 1) };
  if (UPPER_ONLY.test(before)) return { to: first.iso };
  if (LOWER_ONLY.test(before)) return { from: first.iso };
  return { from: first.iso, to: first.iso };
}

/** "FROM 1ST TO 15TH APRIL 2026", "01-15 APRIL 2026": days of one month. */
const DAY_RANGE = new RegExp(String.raw`(?<![\d./-])(\d{1,2})${ORDINAL}\s*(?:TO|-|–|TILL|UNTIL|AND|THROUGH)\s*(\d{1,2})${ORDINAL}\s+(?:OF\s+)?${MONTH}${YEAR}`);
/** "MARCH 2026", "MARCH/APRIL 2026", "APRIL TO MAY", with an optional part of the month before. */
const MONTH_SPAN = new RegExp(String.raw`${MONTH}${YEAR}(?:\s*(?:\/|-|–|TO|TILL|UNTIL|AND|OR|THROUGH)\s*${MONTH}${YEAR})?`);

function fromDayRange(text: string, reference: string | undefined): ShipmentPeriod | undefined {
  const days = DAY_RANGE.exec(text);
  if (!days) return undefined;
  const month = monthIndex(days[3]!);
  const year = yearOf(days[4], month, reference);
  const [a, b] = [Number(days[1]), Number(days[2])];
  if (year === undefined || a < 1 || b > lastDay(year, month) || a > b) return undefined;
  return { from: iso(year, month, a), to: iso(year, month, b) };
}

function fromMonths(text: string, reference: string | undefined): ShipmentPeriod | undefined {
  const span = MONTH_SPAN.exec(text);
  if (!span) return undefined;
  const firstMonth = monthIndex(span[1]!);
  const lastMonth = span[3] ? monthIndex(span[3]) : firstMonth;
  // "MARCH/APRIL 2026": the year written once, after the second month.
  const firstYear = yearOf(span[2] ?? span[4], firstMonth, reference);
  if (firstYear === undefined) return undefined;
  const lastYear = span[4] ? Number(span[4].replace("'", "20")) : lastMonth >= firstMonth ? firstYear : firstYear + 1;
  const before = text.slice(0, span.index);
  const part = PARTS.find(([pattern]) => pattern.test(before));
  let from = iso(firstYear, firstMonth, 1);
  let to = iso(lastYear, lastMonth, lastDay(lastYear, lastMonth));
  if (part) {
    const [, start, end] = part;
    from = iso(firstYear, firstMonth, start);
    to = iso(lastYear, lastMonth, end || lastDay(lastYear, lastMonth));
  }
  const lead = before.replace(/\b(?:OF|THE|IN|DURING|SHIPMENT|FIRST|1ST|SECOND|2ND|HALF|BEGINNING|MIDDLE|END)\b/g, " ");
  if (UPPER_ONLY.test(lead)) return { to };
  if (LOWER_ONLY.test(lead)) return { from };
  if (/\bBEFORE\s*:?\s*$/.test(lead)) return { to: addDays(from, -1) };
  if (/\bAFTER\s*:?\s*$/.test(lead)) return { from: addDays(to, 1) };
  return { from, to };
}

/**
 * The period a :44D: text allows, or undefined when it cannot be read with
 * confidence (the rule then says so rather than guess). `reference` is the
 * credit's date of issue, for periods written without a year.
 */
export function readShipmentPeriod(text: string, reference?: string): ShipmentPeriod | undefined {
  const upper = text.toUpperCase().replace(/\s+/g, " ").trim();
  if (!upper || UNREAD.test(upper)) return undefined;
  const period = fromDayRange(upper, reference) ?? fromDates(upper) ?? fromMonths(upper, reference);
  if (!period || (!period.from && !period.to)) return undefined;
  if (period.from && period.to && period.from > period.to) return undefined;
  return period;
}
