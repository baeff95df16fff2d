/**
 * Goods descriptions compared as a checker reads them: the invoice must
 * correspond to :45A: (UCP 600 art. 18(c), no mirror image required, ISBP 821
 * C3), other documents may use general terms not conflicting with it (art. 14(e)).
 * We measure how many of the credit's goods words a description carries.
 */
import { similarity } from "./similarity";

/** Words that say nothing about which goods: references, trade terms, credit boilerplate. */
const NOISE_WORDS = new Set([
  "AND", "THE", "OF", "WITH", "FOR", "AS", "PER", "ALL", "OTHER", "DETAILS", "RELATED", "GOODS", "INVOICE",
  "PROFORMA", "PRO", "FORMA", "DATED", "DATE", "NOS", "NO", "NUMBER", "REF", "MUST", "CERTIFY", "SAME",
  "BENEFICIARY", "BENEFICIARYS", "APPLICANT", "CONTRACT", "ORDER", "PURCHASE", "SALES", "CONFIRMATION",
  "TERMS", "INCOTERMS", "INCOTERM", "LATEST", "VERSION", "EDITION", "SHIPMENT", "TOTAL", "QUANTITY", "UNIT",
  "PRICE", "AMOUNT", "VALUE", "ABOUT", "APPROXIMATELY", "CIRCA", "EXW", "FCA", "FAS", "FOB", "CFR", "CIF",
  "CPT", "CIP", "DAP", "DPU", "DDP", "CNF", "ANY", "PORT", "SEAPORT", "FROM", "THIS", "CREDIT", "ARE", "IS",
  "TO", "IN", "ON", "BY", "OR", "AT", "BE", "DESCRIPTION", "SERVICES", "USD", "EUR", "ORIGIN", "PCT", "PERCENT",
  "PLUS", "MINUS", "MORE", "LESS", "TOLERANCE", "MIN", "MAX", "MINIMUM", "MAXIMUM", "METRIC", "TON", "TONS",
  "TONNE", "TONNES", "MTS", "KGS", "KILOS", "KILOGRAMS", "LBS", "UNITS", "PCS", "PIECES", "SETS", "LITRES", "LITERS",
]);
/** A chunk with a digit in it is a reference or a code ("OBS/SC/25/463", "B7WE-20-5130-X"), not a goods word. */
const CODE_CHUNK = /\S*\d\S*/g;
/** Packing and cargo-type words: a description made only of these ("3 PALLETS FCL/FCL") is general, never conflicting. */
const PACKING_WORDS = new Set([
  "PALLET", "PALLETS", "BAG", "BAGS", "CARTON", "CARTONS", "CTNS", "BOX", "BOXES", "DRUM", "DRUMS", "CASE", "CASES",
  "PACKAGE", "PACKAGES", "PKGS", "BALE", "BALES", "ROLL", "ROLLS", "FCL", "LCL", "CONTAINER", "CONTAINERS", "SAID",
  "CONTAIN", "CONTAINS", "STC", "SHIPPER", "SHIPPERS", "LOAD", "COUNT", "STOW", "BULK", "CARGO", "GENERAL",
]);
/** Fuzzy word match for OCR noise: only for words this long. */
const FUZZY_MIN_LENGTH = 5;
const FUZZY_MIN_SIMILARITY = 0.8;

/** A trade term and its named place ("CIF JEBEL ALI, UAE") up to the end of its sentence: not goods. */
const TRADE_TERM_CLAUSE = /\b(?:EXW|FCA|FAS|FOB|CFR|CIF|CPT|CIP|DAP|DPU|DDP|CNF|C\s?&\s?F)\b[^.;\n]*/g;

/** The words that identify the goods: letters, at least three, not noise. */
function goodsWords(description: string): string[] {
  const words = description.toUpperCase().replace(TRADE_TERM_CLAUSE, " ").replace(CODE_CHUNK, " ").replace(/['’]/g, "").split(/[^A-Z0-9]+/);
  const kept = words.filter((w) => w.length >= 3 && /[A-Z]/.test(w) && !NOISE_WORDS.has(w));
  return [...new Set(kept)];
}

function hasWord(words: Set<string>, word: string): boolean {
  if (words.has(word)) return true;
  if (word.length < FUZZY_MIN_LENGTH) return false;
  for (const candidate of words) if (similarity(candidate, word) >= FUZZY_MIN_SIMILARITY) return true;
  return false;
}

/** Share (0..1) of the credit's goods words found in `description`; undefined when the credit has none. */
export function descriptionCoverage(creditDescription: string, description: string): number | undefined {
  const wanted = goodsWords(creditDescription);
  if (!wanted.length) return undefined;
  const present = new Set(goodsWords(description));
  return wanted.filter((w) => hasWord(present, w)).length / wanted.length;
}

/** True when two descriptions share at least one goods word, or `a` names no goods at all: general terms do not conflict. */
export function descriptionsShareWord(a: string, b: string): boolean {
  const words = new Set(goodsWords(b));
  const own = goodsWords(a).filter((w) => !PACKING_WORDS.has(w));
  return own.length === 0 || own.some((w) => hasWord(words, w));
}
