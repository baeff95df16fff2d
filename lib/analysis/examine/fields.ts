/**
 * Typed reads of an `extracted` object. Extraction output is untrusted data:
 * a value of the wrong kind is treated as absent, so a rule never reports a
 * discrepancy on a value it could not read.
 */
export type Fields = Record<string, unknown>;

const ISO_DATE = /^\d{4}-\d{2}-\d{2}$/;

export function readText(fields: Fields, key: string): string | undefined {
  const value = fields[key];
  return typeof value === "string" && value.trim() ? value.trim() : undefined;
}

export function readNumber(fields: Fields, key: string): number | undefined {
  const value = fields[key];
  return typeof value === "number" && Number.isFinite(value) ? value : undefined;
}

export function readDate(fields: Fields, key: string): string | undefined {
  const value = readText(fields, key);
  return value && isIsoDate(value) ? value : undefined;
}

export function readList(fields: Fields, key: string): string[] | undefined {
  const value = fields[key];
  if (!Array.isArray(value)) return undefined;
  const items = value.filter((v): v is string => typeof v === "string" && v.trim() !== "").map((v) => v.trim());
  return items.length ? items : undefined;
}

/**
 * A real calendar day written YYYY-MM-DD. Date.parse alone is not enough: it
 * rolls 2030-02-30 over to 2 March, so the date is written back and compared.
 */
export function isIsoDate(value: string): boolean {
  if (!ISO_DATE.test(value)) return false;
  const time = Date.parse(`${value}T00:00:00Z`);
  return !Number.isNaN(time) && new Date(time).toISOString().slice(0, 10) === value;
}

const DAY_MS = 86_400_000;

/** Calendar days from `from` to `to` (both YYYY-MM-DD). */
export function daysBetween(from: string, to: string): number {
  return Math.round((Date.parse(to) - Date.parse(from)) / DAY_MS);
}

export function addDays(date: string, days: number): string {
  return new Date(Date.parse(date) + days * DAY_MS).toISOString().slice(0, 10);
}
