/**
 * The extraction of one document: the prepared document, the values read so
 * far with their evidence, and readers that fill a schema key from labels
 * once (the first reader to find a key wins; later ones are fallbacks).
 */
import { parseAmount } from "../normalize/amount";
import { normalizeCountry, findCountryIn } from "../normalize/country";
import { parseDate } from "../normalize/date";
import { normalizeIncoterm } from "../normalize/incoterms";
import { normalizePort } from "../normalize/port";
import { parsePackages } from "../normalize/quantity";
import { cleanValue } from "../normalize/text";
import { parseVolumeCbm } from "../normalize/volume";
import { parseWeightKg, weightUnitFactor } from "../normalize/weight";
import type { Evidence, Page } from "../types";
import type { IndexedLine } from "./doc-index";
import { prepareDocument, startsWithLabel, type Doc } from "./document";
import { findLabelled, type ValueOptions } from "./find-value";
import { evidenceOf, foundOf, narrowFound, partOf, type Found } from "./found";
import type { LabelHit } from "./labels";
import { isLegalFormOnly, withoutContact } from "./names";
import { readParty } from "./party";

/** Rows at the top of the first page that may hold the letterhead. */
const LETTERHEAD_ROWS = 8;
/** Lines a description of goods may span under its label. */
const DESCRIPTION_LINES = 4;

export class ExtractionContext {
  readonly doc: Doc;
  readonly values: Record<string, unknown> = {};
  readonly evidence: Record<string, Evidence> = {};

  constructor(pages: Page[]) {
    this.doc = prepareDocument(pages);
  }

  has(key: string): boolean {
    return key in this.values;
  }

  /** Records a value unless the key already has one. */
  set(key: string, value: unknown, found: Found): void {
    if (this.has(key) || value === undefined || value === "" || (Array.isArray(value) && value.length === 0)) return;
    this.values[key] = value;
    this.evidence[key] = evidenceOf(found);
  }

  private read<T>(key: string, labels: readonly string[], accept: (f: Found, h: LabelHit) => T | undefined, options?: ValueOptions): void {
    if (this.has(key)) return;
    const result = findLabelled(this.doc, labels, accept, options);
    if (result) this.set(key, result.value, result.found);
  }

  text(key: string, labels: readonly string[], options?: ValueOptions): void {
    this.read(key, labels, (f) => cleanValue(f.text) || undefined, options);
  }

  /**
   * An organisation's name (carrier, issuer, authority): its line, and the next
   * one when that holds only the legal form the name wrapped onto. A logo's
   * initials and a bare country ("Plant Protection Organization of: BRAZIL")
   * name no organisation.
   */
  name(key: string, labels: readonly string[]): void {
    if (this.has(key)) return;
    const result = findLabelled(
      this.doc,
      labels,
      (f) => {
        const [first, second] = f.parts.map((p) => cleanValue(p.line.text.slice(p.start, p.end)));
        if (first!.replace(/[^A-Za-z]/g, "").length <= 3 || normalizeCountry(first!) !== undefined) return undefined;
        return second && isLegalFormOnly(second) ? foundOf(f.parts.slice(0, 2), f.confidence) : foundOf(f.parts.slice(0, 1), f.confidence);
      },
      { maxLines: 2 },
    );
    if (result) {
      const whole = this.letterheadLine(cleanValue(result.value.text));
      if (whole) this.set(key, withoutContact(cleanValue(whole.text)), foundOf([partOf(whole)], result.value.confidence));
      else this.set(key, withoutContact(cleanValue(result.value.text)), result.value);
    }
  }

  /**
   * The issuer signs "For and on behalf of" itself: a signature's name that
   * wrapped ("... DIRECTION DE LA" / "PROTECTION DES VEGETAUX") is printed whole
   * in the letterhead. The letterhead line that starts with `name` and runs on.
   */
  private letterheadLine(name: string): IndexedLine | undefined {
    const first = this.doc.lines[0];
    const upper = name.toUpperCase();
    return this.doc.lines.find(
      (l) => l.page === first?.page && l.row - first.row < LETTERHEAD_ROWS && l.upper.startsWith(upper) && l.text.length > name.length && /^[\s,-]/.test(l.text.slice(name.length)) && !startsWithLabel(this.doc, l),
    );
  }

  description(key: string, labels: readonly string[]): void {
    this.text(key, labels, { maxLines: DESCRIPTION_LINES });
  }

  /** A reference number: the first token-ish run of the value ("INV-1  DATED 2024-03-01" → "INV-1"). */
  reference(key: string, labels: readonly string[]): void {
    this.read(key, labels, (f) => {
      const value = cleanValue(f.text.replace(/\s+(?:DATED?|OF|ON)\b.*$/i, "").replace(/\s{2,}.*$/, ""));
      // A reference starts and ends with a letter or digit: what OCR reads beside it on a scanned form
      // (an underline as "_", a box edge as "|", a full stop) is not part of it.
      return /\d/.test(value) && value.length <= 40 ? value.split(" ")[0]!.replace(/^[^\p{L}\p{N}]+|[^\p{L}\p{N}]+$/gu, "") || undefined : undefined;
    });
  }

  date(key: string, labels: readonly string[]): void {
    this.read(key, labels, (f) => parseDate(f.text, this.doc.dateContext), { maxLines: 2 });
  }

  /** A port on one line, or two when the first ends with a comma ("PORT KHALID," / "SHARJAH"). */
  port(key: string, labels: readonly string[]): void {
    this.read(
      key,
      labels,
      (f) => {
        const first = f.parts[0]!;
        const wrapped = f.parts.length > 1 && first.line.text.slice(first.start, first.end).trim().endsWith(",");
        return normalizePort(wrapped ? f.text : first.line.text.slice(first.start, first.end));
      },
      { maxLines: 2 },
    );
  }

  country(key: string, labels: readonly string[]): void {
    this.read(key, labels, (f) => normalizeCountry(cleanValue(f.text)) ?? findCountryIn(f.text));
  }

  amount(key: string, labels: readonly string[]): void {
    this.read(key, labels, (f) => parseAmount(f.text, this.doc.decimalComma));
  }

  weight(key: string, labels: readonly string[]): void {
    this.read(key, labels, (f, hit) => {
      const header = hit.line.text.slice(hit.start, hit.valueStart);
      return parseWeightKg(f.text, weightUnitFactor(header), this.doc.decimalComma);
    });
  }

  volume(key: string, labels: readonly string[]): void {
    this.read(key, labels, (f, hit) => {
      const header = hit.line.upper.slice(hit.start, hit.valueStart);
      return parseVolumeCbm(f.text, /CBM|M3|CUBIC/.test(header) ? 1 : undefined, this.doc.decimalComma);
    });
  }

  incoterm(key: string, labels: readonly string[]): void {
    this.read(key, labels, (f) => normalizeIncoterm(f.text));
  }

  /** number_of_packages and package_type from "Total Packages: 250 CARTONS". */
  packages(countKey: string, typeKey: string | undefined, labels: readonly string[]): void {
    if (this.has(countKey)) return;
    const result = findLabelled(this.doc, labels, (f) => parsePackages(f.text), { maxLines: 2 });
    if (!result) return;
    const { count, type, index, length } = result.value;
    const found = narrowFound(result.found, index, index + length);
    this.set(countKey, count, found);
    if (typeKey) this.set(typeKey, type, found);
  }

  party(key: string, addressKey: string | undefined, labels: readonly string[]): void {
    if (this.has(key)) return;
    const party = readParty(this.doc, labels);
    if (!party) return;
    this.set(key, party.name, party.nameFound);
    if (addressKey && party.address && party.addressFound) this.set(addressKey, party.address, party.addressFound);
  }

  /** The extracted values and evidence, keys in schema order. */
  result(order: readonly string[]): { values: Record<string, unknown>; evidence: Record<string, Evidence> } {
    const values: Record<string, unknown> = {};
    const evidence: Record<string, Evidence> = {};
    for (const key of order) {
      if (!this.has(key)) continue;
      values[key] = this.values[key];
      evidence[key] = this.evidence[key]!;
    }
    return { values, evidence };
  }
}
