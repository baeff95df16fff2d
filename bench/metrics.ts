/**
 * Accuracy of an analyze array against the expected one: page-type accuracy,
 * split F1 (type and page set both right) and field F1 over the schema keys,
 * overall and per document type.
 */
import type { SplitResult } from "@/lib/analysis";

/** Relative tolerance for numbers: weights and amounts rounded differently still match. */
const NUMBER_TOLERANCE = 0.005;
const TRAILING_PUNCTUATION = /[\s.,;:]+$/;

export interface Counts {
  tp: number;
  fp: number;
  fn: number;
}

export interface CaseScore {
  pagesCorrect: number;
  pagesTotal: number;
  /** Split counts per type label (the expected label for misses, the predicted one for false alarms). */
  splits: Record<string, Counts>;
  /** Field counts per type label. */
  fields: Record<string, Counts>;
  /** Field counts per "Type label / key", so that a regression has a name. */
  keys: Record<string, Counts>;
  /** Pages by expected type label, then by predicted label ("(none)" for a page no split holds). */
  confusion: Record<string, Record<string, number>>;
}

function emptyCounts(): Counts {
  return { tp: 0, fp: 0, fn: 0 };
}

/** Share of reported values that are right; 1 when nothing was reported. */
export function precision(counts: Counts): number {
  return counts.tp + counts.fp === 0 ? 1 : counts.tp / (counts.tp + counts.fp);
}

/** Share of expected values found; 1 when nothing was expected. */
export function recall(counts: Counts): number {
  return counts.tp + counts.fn === 0 ? 1 : counts.tp / (counts.tp + counts.fn);
}

export function f1(counts: Counts): number {
  const denominator = 2 * counts.tp + counts.fp + counts.fn;
  return denominator === 0 ? 1 : (2 * counts.tp) / denominator;
}

function addCounts(into: Counts, more: Counts): Counts {
  into.tp += more.tp;
  into.fp += more.fp;
  into.fn += more.fn;
  return into;
}

function bump(table: Record<string, Counts>, label: string, key: keyof Counts, by = 1): void {
  (table[label] ??= emptyCounts())[key] += by;
}

function normalizeString(value: string): string {
  return value.replace(/\s+/g, " ").trim().replace(TRAILING_PUNCTUATION, "").toLowerCase();
}

/**
 * Separators between the parts of an address: a comma or semicolon, or a dash
 * or bar standing between spaces. "STREET, CITY, COUNTRY" and "STREET CITY
 * COUNTRY" print one address; a hyphen inside a word ("AL-QUOZ") or a post code
 * ("20457-000") is no separator.
 */
const ADDRESS_SEPARATOR = /\s*[,;]\s*|\s+[-–|]\s+/g;

/** A schema key that holds an address (`seller_address`, `exporter_address`...). */
const isAddressKey = (key: string) => key.endsWith("_address");

/** Address equality: as `valuesEqual`, with the separators between the address's parts read as spaces. */
export function addressesEqual(expected: unknown, actual: unknown): boolean {
  if (typeof expected !== "string" || typeof actual !== "string") return valuesEqual(expected, actual);
  return valuesEqual(expected.replace(ADDRESS_SEPARATOR, " "), actual.replace(ADDRESS_SEPARATOR, " "));
}

/** Value equality after light normalisation: case and spacing of strings, 0.5% on numbers, arrays as sets. */
export function valuesEqual(expected: unknown, actual: unknown): boolean {
  if (typeof expected === "number" && typeof actual === "number") {
    const scale = Math.max(Math.abs(expected), Math.abs(actual));
    return Math.abs(expected - actual) <= NUMBER_TOLERANCE * scale;
  }
  if (typeof expected === "string" && typeof actual === "string") return normalizeString(expected) === normalizeString(actual);
  if (Array.isArray(expected) && Array.isArray(actual)) return sameSet(expected, actual);
  if (isRecord(expected) && isRecord(actual)) {
    const keys = new Set([...Object.keys(expected), ...Object.keys(actual)]);
    return [...keys].every((k) => valuesEqual(expected[k], actual[k]));
  }
  return expected === actual;
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

/** Every element of each array has an equal element in the other. */
function sameSet(a: readonly unknown[], b: readonly unknown[]): boolean {
  return a.every((x) => b.some((y) => valuesEqual(x, y))) && b.every((y) => a.some((x) => valuesEqual(x, y)));
}

function labelByPage(splits: readonly SplitResult[]): Map<number, string> {
  const out = new Map<number, string>();
  for (const s of splits) for (const p of s.split.pages) out.set(p, s.split.document_type);
  return out;
}

function samePages(a: readonly number[], b: readonly number[]): boolean {
  return a.length === b.length && [...a].sort((x, y) => x - y).every((p, i) => p === [...b].sort((x, y) => x - y)[i]);
}

function overlap(a: readonly number[], b: readonly number[]): number {
  const set = new Set(b);
  const shared = a.filter((p) => set.has(p)).length;
  return shared / (a.length + b.length - shared);
}

/** Pairs each expected split with the predicted split of its type that overlaps its pages most (one-to-one). */
export function pairSplits(expected: readonly SplitResult[], predicted: readonly SplitResult[]): [number, number][] {
  const candidates: { e: number; p: number; score: number }[] = [];
  expected.forEach((es, e) => predicted.forEach((ps, p) => {
    if (es.split.document_type !== ps.split.document_type) return;
    const score = overlap(es.split.pages, ps.split.pages);
    if (score > 0) candidates.push({ e, p, score });
  }));
  candidates.sort((x, y) => y.score - x.score || x.e - y.e || x.p - y.p);
  const usedE = new Set<number>();
  const usedP = new Set<number>();
  const pairs: [number, number][] = [];
  for (const c of candidates) {
    if (usedE.has(c.e) || usedP.has(c.p)) continue;
    usedE.add(c.e);
    usedP.add(c.p);
    pairs.push([c.e, c.p]);
  }
  return pairs;
}

function scoreFields(label: string, expected: Record<string, unknown>, actual: Record<string, unknown>, table: Record<string, Counts>, keys: Record<string, Counts>): void {
  table[label] ??= emptyCounts();
  for (const k of new Set([...Object.keys(expected), ...Object.keys(actual)])) {
    const inExpected = k in expected;
    const inActual = k in actual;
    const key = `${label} / ${k}`;
    const equal = isAddressKey(k) ? addressesEqual : valuesEqual;
    if (inExpected && inActual && equal(expected[k], actual[k])) {
      bump(table, label, "tp");
      bump(keys, key, "tp");
    } else {
      if (inExpected) {
        bump(table, label, "fn");
        bump(keys, key, "fn");
      }
      if (inActual) {
        bump(table, label, "fp");
        bump(keys, key, "fp");
      }
    }
  }
}

/** The label a page was given: none when no predicted split holds it. */
export const NO_LABEL = "(none)";

/** Scores one file's predicted analyze array against its expected one. */
export function scoreCase(expected: readonly SplitResult[], predicted: readonly SplitResult[]): CaseScore {
  const truth = labelByPage(expected);
  const guess = labelByPage(predicted);
  let pagesCorrect = 0;
  const confusion: Record<string, Record<string, number>> = {};
  for (const [page, label] of truth) {
    const given = guess.get(page) ?? NO_LABEL;
    if (given === label) pagesCorrect++;
    const row = (confusion[label] ??= {});
    row[given] = (row[given] ?? 0) + 1;
  }

  const splits: Record<string, Counts> = {};
  const matched = new Set<number>();
  for (const es of expected) {
    const hit = predicted.findIndex((ps, i) => !matched.has(i) && ps.split.document_type === es.split.document_type && samePages(ps.split.pages, es.split.pages));
    if (hit >= 0) {
      matched.add(hit);
      bump(splits, es.split.document_type, "tp");
    } else bump(splits, es.split.document_type, "fn");
  }
  predicted.forEach((ps, i) => { if (!matched.has(i)) bump(splits, ps.split.document_type, "fp"); });

  const fields: Record<string, Counts> = {};
  const keys: Record<string, Counts> = {};
  const pairs = pairSplits(expected, predicted);
  const pairedE = new Set(pairs.map(([e]) => e));
  const pairedP = new Set(pairs.map(([, p]) => p));
  for (const [e, p] of pairs) scoreFields(expected[e]!.split.document_type, expected[e]!.extracted, predicted[p]!.extracted, fields, keys);
  expected.forEach((es, e) => { if (!pairedE.has(e)) scoreFields(es.split.document_type, es.extracted, {}, fields, keys); });
  predicted.forEach((ps, p) => { if (!pairedP.has(p)) scoreFields(ps.split.document_type, {}, ps.extracted, fields, keys); });
  return { pagesCorrect, pagesTotal: truth.size, splits, fields, keys, confusion };
}

export interface Summary {
  pageAccuracy: number;
  pagesTotal: number;
  splitF1: number;
  fieldF1: number;
  splitsByType: Record<string, Counts>;
  fieldsByType: Record<string, Counts>;
  /** Field counts per "Type label / key". */
  fieldsByKey: Record<string, Counts>;
  /** Pages by expected type label, then by predicted label. */
  confusion: Record<string, Record<string, number>>;
}

/** All types' counts added together. */
export function totalCounts(table: Record<string, Counts>): Counts {
  return Object.values(table).reduce((sum, c) => addCounts(sum, c), emptyCounts());
}

/** Adds up case scores into overall and per-type numbers. */
export function summarize(cases: readonly CaseScore[]): Summary {
  const splitsByType: Record<string, Counts> = {};
  const fieldsByType: Record<string, Counts> = {};
  const fieldsByKey: Record<string, Counts> = {};
  const confusion: Record<string, Record<string, number>> = {};
  let pagesCorrect = 0;
  let pagesTotal = 0;
  for (const c of cases) {
    pagesCorrect += c.pagesCorrect;
    pagesTotal += c.pagesTotal;
    for (const [label, counts] of Object.entries(c.splits)) addCounts(splitsByType[label] ??= emptyCounts(), counts);
    for (const [label, counts] of Object.entries(c.fields)) addCounts(fieldsByType[label] ??= emptyCounts(), counts);
    for (const [key, counts] of Object.entries(c.keys)) addCounts(fieldsByKey[key] ??= emptyCounts(), counts);
    for (const [label, row] of Object.entries(c.confusion)) {
      const into = (confusion[label] ??= {});
      for (const [given, n] of Object.entries(row)) into[given] = (into[given] ?? 0) + n;
    }
  }
  return {
    pageAccuracy: pagesTotal === 0 ? 1 : pagesCorrect / pagesTotal,
    pagesTotal,
    splitF1: f1(totalCounts(splitsByType)),
    fieldF1: f1(totalCounts(fieldsByType)),
    splitsByType,
    fieldsByType,
    fieldsByKey,
    confusion,
  };
}
