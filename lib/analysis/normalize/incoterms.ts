/** Incoterms 2020 (and the older names still printed) with their named place as printed: "CIF ROTTERDAM". */
import { cleanValue } from "./text";

const INCOTERM_PATTERN =
  /(?<![A-Z0-9])(EXW|FCA|FAS|FOB|CFR|CIF|CPT|CIP|DAP|DPU|DDP|C\s?&\s?F|CNF|C\s?AND\s?F|DAT|DDU|DES|DEQ|DAF)(?![A-Z0-9&])/;

/** Where the named place ends: an edition note, a bracket, or a following clause. */
const PLACE_END = /\s*(?:\(|\bINCOTERMS?\b|\bAS PER\b|\bUNDER\b|\bIN ACCORDANCE\b|;|\n).*$/is;

/** Places are short; a longer tail is a sentence, not a place. */
const MAX_PLACE_WORDS = 6;

export function normalizeIncoterm(text: string): string | undefined {
  const m = INCOTERM_PATTERN.exec(text.toUpperCase());
  if (!m) return undefined;
  const code = m[1]!.replace(/\s/g, "").replace(/^C(?:&|AND)F$|^CNF$/, "CFR");
  const tail = text.slice(m.index + m[0].length).replace(PLACE_END, "");
  const place = cleanValue(tail);
  if (!place || place.split(" ").length > MAX_PLACE_WORDS) return code;
  return `${code} ${place}`;
}
