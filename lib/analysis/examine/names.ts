/**
 * Party names as a checker compares them: case, punctuation, "&"/"AND",
 * legal-form variants (CO., LTD / COMPANY LIMITED, LLC, GMBH, S.P.A.) and a
 * trailing address do not make two names different (ISBP 821 A: misspellings
 * and typing errors that do not affect meaning are not discrepancies).
 */
import { normalizeCountry } from "../normalize/country";
import { readText, type Fields } from "./fields";
import { similarity } from "./similarity";

/** Legal-form words, stripped from the end of a name (compact spellings without dots and spaces). */
const LEGAL_FORMS = new Set([
  "CO", "COMPANY", "CORP", "CORPORATION", "INC", "INCORPORATED", "LTD", "LIMITED", "LLC", "LLP", "PLC",
  "GMBH", "AG", "KG", "SPA", "SRL", "SAS", "SARL", "SA", "BV", "NV", "AB", "AS", "OY", "OYJ", "PTE", "PVT",
  "PRIVATE", "PTY", "SDN", "BHD", "TBK", "JSC", "PJSC", "OJSC", "FZE", "FZCO", "FZC", "FZ", "KK", "KFT",
  "SPZOO", "ZOO", "EST", "ESTABLISHMENT",
]);
/** Trailing tokens this short after a shared name are initials or a misread legal form ("U A E", "CO LT"). */
const MAX_TRAILING_TOKEN = 3;
/** Prefixes that are not part of the name. */
const LEADING_NOISE = /^(?:M\/S\.?|MESSRS\.?|TO THE ORDER OF|TO ORDER OF|TO THE ORDER|ORDER OF)\s+/;
/** Where an address starts inside a name cell: a P.O. box, or a number after the name proper. */
const ADDRESS_START = /\b(?:P\.?\s?O\.?\s?BOX|POST BOX|NO\.\s?\d)|,?\s+\d[\dA-Z\-/]*[,\s]/;

/** Spelling variants of the same legal form, joined into one token. */
const JOINS: [RegExp, string][] = [
  [/\bS\.?\s?P\.?\s?A\b\.?/g, "SPA"],
  [/\bS\.?\s?R\.?\s?L\b\.?/g, "SRL"],
  [/\bL\.?\s?L\.?\s?C\b\.?/g, "LLC"],
  [/\bG\.?\s?M\.?\s?B\.?\s?H\b\.?/g, "GMBH"],
  [/\bP\.?\s?T\.?\s?E\b\.?/g, "PTE"],
  [/\bS\.?\s?A\b\.?/g, "SA"],
  [/\bB\.?\s?V\b\.?/g, "BV"],
  [/\bN\.?\s?V\b\.?/g, "NV"],
  [/\bK\.?\s?K\b\.?/g, "KK"],
  [/\bSP\.?\s?Z\s?O\.?\s?O\b\.?/g, "SPZOO"],
];

/** The name proper: upper case, no address, no punctuation, no legal form. */
export function coreName(name: string): string {
  let text = name.normalize("NFD").replace(/[\u0300-\u036f]/g, "").toUpperCase().trim();
  text = text.replace(LEADING_NOISE, "");
  const address = ADDRESS_START.exec(text);
  if (address && address.index > 0) text = text.slice(0, address.index);
  text = text.replace(/&/g, " AND ");
  for (const [pattern, joined] of JOINS) text = text.replace(pattern, joined);
  // A comma after the legal form starts the address ("PEARL GULF AGRI SUPPLIES LLC, SHARJAH, UAE").
  for (const m of text.matchAll(/\b([A-Z]+)\.?\s*,/g)) {
    if (!LEGAL_FORMS.has(m[1]!)) continue;
    text = text.slice(0, m.index + m[1]!.length);
    break;
  }
  const words = text.replace(/[^A-Z0-9]+/g, " ").trim().split(" ").filter(Boolean);
  while (words.length > 1 && (LEGAL_FORMS.has(words.at(-1)!) || words.at(-1) === "AND" || words.at(-1) === "THE")) {
    words.pop();
  }
  if (words[0] === "THE" && words.length > 1) words.shift();
  return words.join(" ");
}

/** True when two printed names designate the same party. */
export function sameParty(a: string, b: string, minSimilarity: number): boolean {
  const x = coreName(a);
  const y = coreName(b);
  if (!x || !y) return false;
  if (x === y) return true;
  // A name cell that runs on into the address or a misread legal form ("MITSUI AND CO LT"):
  // the shorter name is the longer one's first words and what follows is only short tokens.
  const [short, long] = x.length <= y.length ? [x, y] : [y, x];
  if (long.startsWith(`${short} `)) {
    const rest = long.slice(short.length + 1);
    if (rest.split(" ").every((w) => w.length <= MAX_TRAILING_TOKEN || LEGAL_FORMS.has(w))) return true;
    // "KOREA TRADE FINANCE BANK, KOREA": the address's country after the name.
    if (normalizeCountry(rest)) return true;
  }
  return similarity(x, y) >= minSimilarity;
}

/** "TO ORDER", "TO ORDER OF SHIPPER", "TO THE ORDER OF THE SHIPPER": no named consignee. */
export function isBlankOrder(name: string): boolean {
  return /^\s*TO\s+(?:THE\s+)?ORDER(?:\s+OF\s+(?:THE\s+)?SHIPPER)?\s*\.?\s*$/i.test(name);
}

/** Form captions and stamps that extraction sometimes returns in place of a party's name. */
const NOT_A_NAME =
  /NAME\s+AND\s+ADDRESS|\bCOMPLETE\s+NAME|\bPRINT\b|\bORIGINAL\b|\bCOPY\b|\bSEE\s+(?:ABOVE|BELOW|ATTACHED)|\b(?:SHALL|CLAIM|FAILURE|NOTIFY|DESTINATARIO|PARTY|ADDRESS)\b|[{}<>]/i;
/** A name has a word of at least this many letters. */
const MIN_NAME_WORD = 3;

export function isPlausibleParty(name: string): boolean {
  // A legal form alone ("LIMITED", "SDN BHD") is the tail of a name cut off, not a name.
  const words = name.toUpperCase().split(/[^A-Z0-9]+/).filter(Boolean);
  if (words.length > 0 && words.every((w) => LEGAL_FORMS.has(w))) return false;
  return !NOT_A_NAME.test(name) && new RegExp(`[A-Za-z]{${MIN_NAME_WORD}}`).test(name);
}

/** A party field's value, or undefined when it is absent or reads as a caption rather than a name. */
export function readParty(fields: Fields, key: string): string | undefined {
  const value = readText(fields, key);
  return value && isPlausibleParty(value) ? value : undefined;
}
