/**
 * A layout's fingerprint: the printed words that stay put from one document of
 * a template to the next — its labels and headings — with where they sit. A
 * line's label part (up to its first colon) is kept when it holds no digit
 * (digits are values: numbers, dates, references); values without digits
 * (names, ports) get in too, but differ between documents and only lower the
 * similarity a little. Derived from the page geometry, never the file's bytes:
 * two invoices of one template share it whatever they say.
 */
import { LABEL_SYNONYMS, STOP_LABELS } from "../extract/label-vocab";
import type { Page } from "../types";

/** One label of the fingerprint: its text and the start of its line, as fractions of the page. */
export interface FingerprintLine {
  page: number;
  text: string;
  x: number;
  y: number;
}

/** A template's first pages carry its layout; continuation pages repeat or run on. */
const FINGERPRINT_PAGES = 2;
const MAX_LABEL_LENGTH = 40;
/** Two labels are the same label when their lines start this close (fraction of the page). */
const POSITION_TOLERANCE = 0.03;

/** The label part of a line: its text up to its first colon (all of it without one), lower case, when it holds no digit. */
export function labelPart(text: string): string | undefined {
  const colon = text.indexOf(":");
  const label = (colon >= 0 ? text.slice(0, colon + 1) : text).replace(/\s+/g, " ").trim().toLowerCase();
  if (label.length > MAX_LABEL_LENGTH || /\d/.test(label) || (label.match(/[a-z]/g) ?? []).length < 2) return undefined;
  return label;
}

/** The labels of a document's pages (one document's pages, in order). */
export function layoutFingerprint(pages: readonly Page[]): FingerprintLine[] {
  return pages.slice(0, FINGERPRINT_PAGES).flatMap((page, index) =>
    page.lines.flatMap((line) => {
      const text = labelPart(line.text);
      return text ? [{ page: index, text, x: round(line.x / page.width), y: round(line.y / page.height) }] : [];
    }),
  );
}

const round = (fraction: number) => Math.round(fraction * 10_000) / 10_000;

/** Share of labels the two fingerprints have in common at the same place (0..1), over the larger one. */
export function layoutSimilarity(a: readonly FingerprintLine[], b: readonly FingerprintLine[]): number {
  if (a.length === 0 || b.length === 0) return 0;
  const unused = [...b];
  let shared = 0;
  for (const label of a) {
    const at = unused.findIndex(
      (other) => other.page === label.page && other.text === label.text && Math.abs(other.x - label.x) <= POSITION_TOLERANCE && Math.abs(other.y - label.y) <= POSITION_TOLERANCE,
    );
    if (at < 0) continue;
    unused.splice(at, 1);
    shared++;
  }
  return shared / Math.max(a.length, b.length);
}

/** Words of the engine's label vocabulary ("port", "loading", "gross", "weight" …). */
const LABEL_WORDS = new Set(
  [...Object.values(LABEL_SYNONYMS).flat(), ...STOP_LABELS].flatMap((label) => label.toLowerCase().split(/[^a-z]+/)).filter((w) => w.length > 1),
);

/**
 * Whether a line's label part reads as a label rather than a value without
 * digits (a name, a port): it ends in a colon, or most of its words are words
 * labels are made of.
 */
export function isLabelText(label: string): boolean {
  if (label.endsWith(":")) return true;
  const words = label.split(/[^a-z]+/).filter((w) => w.length > 1);
  return words.length > 0 && words.filter((w) => LABEL_WORDS.has(w)).length * 2 > words.length;
}

/** A short stable name for a fingerprint (FNV-1a of its labels), to tell learned layouts apart on screen. */
export function fingerprintId(lines: readonly FingerprintLine[]): string {
  let hash = 0x811c9dc5;
  for (const line of lines) {
    for (const ch of `${line.page}|${line.text}|${Math.round(line.x * 50)}|${Math.round(line.y * 50)};`) {
      hash ^= ch.charCodeAt(0);
      hash = Math.imul(hash, 0x01000193) >>> 0;
    }
  }
  return hash.toString(16).padStart(8, "0");
}

/** Fields that name who issued a document, most specific first. */
const ISSUER_FIELDS = ["issuer", "carrier", "seller", "exporter", "shipper", "issuing_bank", "beneficiary"] as const;

/** The issuer of a document from its values (letters and digits only, upper case); "" when none is read. */
export function issuerKeyOf(values: Readonly<Record<string, unknown>>): string {
  for (const field of ISSUER_FIELDS) {
    const value = values[field];
    if (typeof value === "string" && value.trim()) return value.toUpperCase().replace(/[^A-Z0-9]+/g, " ").trim();
  }
  return "";
}
