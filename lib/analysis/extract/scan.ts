/**
 * Rules that read the whole document rather than one label: container numbers
 * (ISO 6346, check digit validated), seals, HS codes, freight terms, the
 * on-board notation, Incoterms. Each runs once over the indexed lines.
 */
import { findContainerNumbers, normalizeSealNumber } from "../normalize/container";
import { findDates } from "../normalize/date";
import { normalizeIncoterm } from "../normalize/incoterms";
import { normalizeFreightTerms } from "../normalize/terms";
import { parseWeightKg } from "../normalize/weight";
import type { ExtractionContext } from "./context";
import { valueOfHit } from "./find-value";
import { CONFIDENCE, foundOf, partOf, type Found, type Part } from "./found";
import { allMatches } from "../normalize/matches";
import { readTable } from "./table";

/** Lines after an on-board notation that may still carry its date. */
const ON_BOARD_LOOKAHEAD = 2;
/** Lines a list under a label (containers, seals, HS codes) may span. */
const LIST_LINES = 6;

/** The label is a word of its own: "HS884213" or "HS-884213" glued to its digits is a seal or reference, no HS label. */
const HS_LABEL = /(?<![A-Z])(?:H\.?\s?S\.?\s?(?:CODES?|NO\.?|TARIFF(?: NO\.?| CODE)?)?|HTS(?: CODE)?|(?:CUSTOMS )?TARIFF(?: CODE| NO\.?| HEADING)?|HARMONI[SZ]ED(?: SYSTEM)?(?: CODE)?|COMMODITY CODE|CUSTOMS CODE)(?![A-Z0-9]|-[A-Z0-9])\s*[:.#]?\s*/g;
const HS_CODE = /(?<![\d.])(\d{4}(?:[.\s-]?\d{2}){1,3}|\d{4}\.\d{2}|\d{6,10})(?![\d])/g;
const ON_BOARD = /(?:SHIPPED|LADEN|LOADED|PLACED)\s+ON\s+BOARD|ON\s+BOARD\s+(?:DATE|ON)|DATE\s+(?:OF\s+)?(?:LADEN|LOADED|SHIPPED)\s+ON\s+BOARD/;
const FREIGHT_PHRASE = /FREIGHT\s+(?:PRE-?\s?PAID|COLLECT|PAYABLE\s+AT\s+DESTINATION)|FREIGHT\s*:\s*(?:PRE-?\s?PAID|COLLECT)/;
const INCOTERM_LINE = /^(?:TOTAL\s+(?:VALUE\s+)?)?(?:EXW|FCA|FAS|FOB|CFR|CIF|CPT|CIP|DAP|DPU|DDP|C&F|CNF)\b[\s,:]+[A-Z]/;
/** "... CFR APAPA (INCOTERMS 2020)": a term with its place, named with its edition anywhere in a line. */
const INCOTERM_EDITION = /\b(?:EXW|FCA|FAS|FOB|CFR|CIF|CPT|CIP|DAP|DPU|DDP)\s+[A-Z][A-Z .'-]*?\s*\(?INCOTERMS/;
const SEAL_INLINE = /SEAL(?:\s*(?:NO|NOS|NUMBER|#)\.?)?\s*[:#.]?\s*([A-Z0-9][A-Z0-9-]{3,})/g;

/** Container numbers from anywhere on the document, document order, no duplicates. */
export function scanContainers(ctx: ExtractionContext, key = "container_numbers"): void {
  const numbers: string[] = [];
  const parts: Part[] = [];
  for (const line of ctx.doc.lines) {
    for (const match of findContainerNumbers(line.text)) {
      if (numbers.includes(match.number)) continue;
      numbers.push(match.number);
      parts.push(partOf(line, match.index, match.index + match.length));
    }
  }
  if (numbers.length > 0) ctx.set(key, numbers, foundOf(parts, CONFIDENCE.sameLine));
}

/** Seal numbers after "Seal" labels and inline "SEAL NO: X". */
export function scanSeals(ctx: ExtractionContext, key = "seal_numbers"): void {
  const seals: string[] = [];
  const parts: Part[] = [];
  const add = (raw: string, part: Part) => {
    const seal = normalizeSealNumber(raw);
    if (!seal || seals.includes(seal) || findContainerNumbers(seal).length > 0) return;
    seals.push(seal);
    parts.push(part);
  };
  for (const line of ctx.doc.lines) {
    for (const m of allMatches(SEAL_INLINE, line.upper)) add(m[1]!, partOf(line, m.index, m.index + m[0].length));
  }
  // A container table's seal column: one seal (or a few) per container row.
  const column = seals.length === 0 ? readTable(ctx.doc, ["seal"], CONFIDENCE.table) : undefined;
  for (const item of column?.items ?? []) {
    for (const part of item.seal?.parts ?? []) {
      // A container number spaced as printed ("TRCU 2184490") may reach under the seal title: it is no seal.
      let text = part.line.text;
      for (const c of findContainerNumbers(text)) text = text.slice(0, c.index) + " ".repeat(c.length) + text.slice(c.index + c.length);
      for (const token of text.slice(part.start, part.end).split(/[\s,;/]+/)) add(token, part);
    }
  }
  if (seals.length === 0) {
    for (const hit of ctx.doc.hitsByKey.get("seal_numbers") ?? []) {
      const found = valueOfHit(ctx.doc, hit, { maxLines: LIST_LINES });
      for (const part of found?.parts ?? []) {
        for (const token of part.line.text.slice(part.start, part.end).split(/[\s,;/]+/)) add(token, part);
      }
    }
  }
  if (seals.length > 0) ctx.set(key, seals, foundOf(parts, CONFIDENCE.sameLine));
}

/** HS codes after "HS Code", "H.S. CODE", "HS:", "Tariff" on the same line or below the label. */
export function scanHsCodes(ctx: ExtractionContext, key = "hs_codes"): void {
  const codes: string[] = [];
  const parts: Part[] = [];
  const addFrom = (text: string, part: Part) => {
    for (const m of allMatches(HS_CODE, text)) {
      const code = m[1]!.replace(/\s/g, "");
      if (!codes.includes(code)) {
        codes.push(code);
        parts.push(part);
      }
    }
  };
  for (const line of ctx.doc.lines) {
    for (const m of allMatches(HS_LABEL, line.upper)) {
      if (m[0].trim().length < 2) continue;
      const after = line.text.slice(m.index + m[0].length);
      const before = codes.length;
      addFrom(after.split(/\s{2,}|[A-Za-z]{3,}/)[0] ?? "", partOf(line, m.index, line.text.length));
      // No code after the label on its line: the label's value wherever it is (next column, below, or above a caption).
      if (codes.length === before) {
        const hit = ctx.doc.hitsByLine[line.id]!.find((h) => h.keys.includes("hs_code"));
        const found = hit ? valueOfHit(ctx.doc, hit, { maxLines: LIST_LINES }) : undefined;
        for (const part of found?.parts ?? []) addFrom(part.line.text.slice(part.start, part.end), part);
      }
    }
  }
  if (codes.length > 0) ctx.set(key, codes, foundOf(parts, CONFIDENCE.sameLine));
}

/** HS codes printed in a text: "1207.40", "0904.11.00", "HS 100199". */
export function hsCodesIn(text: string): string[] {
  return allMatches(HS_CODE, text).map((m) => m[1]!.replace(/\s/g, ""));
}

/** prepaid | collect from "FREIGHT PREPAID" anywhere, after the labelled "Freight:" box. */
export function scanFreight(ctx: ExtractionContext, key = "freight_terms"): void {
  for (const hit of ctx.doc.hitsByKey.get("freight") ?? []) {
    const found = valueOfHit(ctx.doc, hit, { maxLines: 1 });
    const value = found && normalizeFreightTerms(found.text);
    if (found && value) return ctx.set(key, value, found);
  }
  for (const line of ctx.doc.lines) {
    const m = FREIGHT_PHRASE.exec(line.upper);
    const value = m && normalizeFreightTerms(m[0]);
    if (m && value) return ctx.set(key, value, { ...foundOf([partOf(line, m.index, m.index + m[0].length)], CONFIDENCE.scan) });
  }
}

/** The date of the on-board notation: after it on its line, or on the next lines (even broken across them). */
export function scanOnBoardDate(ctx: ExtractionContext, key = "shipped_on_board_date"): void {
  const { lines, dateContext } = ctx.doc;
  for (const line of lines) {
    const phrase = ON_BOARD.exec(line.upper);
    if (!phrase) continue;
    const following = lines.slice(line.id + 1, line.id + 1 + ON_BOARD_LOOKAHEAD).filter((l) => l.page === line.page);
    const text = [line.text.slice(phrase.index), ...following.map((l) => l.text)].join(" ");
    const date = findDates(text, dateContext)[0];
    if (!date) continue;
    const within = phrase.index + date.index + date.length <= line.text.length;
    const parts = within ? [partOf(line, phrase.index + date.index, phrase.index + date.index + date.length)] : [partOf(line, phrase.index), ...following.map((l) => partOf(l))];
    return ctx.set(key, date.iso, foundOf(parts, CONFIDENCE.below));
  }
}

/** An Incoterm printed on a line of its own or after the price ("CIF ROTTERDAM"), as a fallback. */
export function scanIncoterm(ctx: ExtractionContext, key = "incoterms"): void {
  if (ctx.has(key)) return;
  for (const line of ctx.doc.lines) {
    const edition = INCOTERM_EDITION.exec(line.text);
    const named = edition && normalizeIncoterm(edition[0]);
    if (named) return ctx.set(key, named, foundOf([partOf(line, edition.index, edition.index + edition[0].length)], CONFIDENCE.scan));
  }
  for (const line of ctx.doc.lines) {
    if (!INCOTERM_LINE.test(line.upper)) continue;
    const value = normalizeIncoterm(line.text.replace(/:.*$/, ""));
    if (value) return ctx.set(key, value, { ...foundOf([partOf(line)], CONFIDENCE.scan) } as Found);
  }
}

/** "gross weight was found to be 72.900,000 KGS, the tare of the containers 8.250,000 KGS": a weight named in prose. */
const WEIGHT_PHRASE = /\b(GROSS|NET|TARE)\b[A-Z ,]{0,60}?(\d[\d.,]*\s*(?:KGS?|KILOS?|KILOGRAMS?|MT|M\/T|METRIC TONS?|TONNES?|LBS?)\b)/gi;
const WEIGHT_KEYS: Readonly<Record<string, string>> = { GROSS: "gross_weight_kg", NET: "net_weight_kg", TARE: "tare_weight_kg" };

/** Weights stated in sentences (surveyors' findings), for the keys in `keys`, across line breaks. */
export function scanWeightPhrases(ctx: ExtractionContext, keys: readonly string[]): void {
  const { lines } = ctx.doc;
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i]!;
    const next = lines[i + 1];
    const text = next && next.page === line.page ? `${line.text} ${next.text}` : line.text;
    for (const m of allMatches(WEIGHT_PHRASE, text)) {
      if (m.index >= line.text.length) break;
      const key = WEIGHT_KEYS[m[1]!.toUpperCase()]!;
      const kg = keys.includes(key) ? parseWeightKg(m[2]!, undefined, ctx.doc.decimalComma) : undefined;
      if (kg !== undefined) ctx.set(key, kg, foundOf([partOf(line, m.index)], CONFIDENCE.scan));
    }
  }
}
