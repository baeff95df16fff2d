/**
 * Ports and places compared as a checker does: "YOKOHAMA, JAPAN" and
 * "YOKOHAMA PORT" are the same port; a credit's range ("ANY SEAPORT IN JAPAN",
 * ISBP 821 E6) is met by an actual port in that area.
 */
import { findCountryIn } from "../normalize/country";
import { substringDistance } from "./similarity";

/** Share of a port name's letters OCR may have got wrong before two names count as different ports. */
const OCR_EDIT_SHARE = 0.15;

/** Words around a port name that do not name it. */
const PORT_NOISE = new Set(["PORT", "SEAPORT", "SEA", "HARBOUR", "HARBOR", "OF", "THE", "CY", "TERMINAL", "CITY", "AIRPORT"]);
const RANGE = /^\s*(?:ANY|ALL|ONE)\s+(?:MAIN\s+|MAJOR\s+|INTERNATIONAL\s+)?(?:SEA\s*)?(?:PORT|AIRPORT)S?(?:\s*\(S\))?\s+(?:IN|OF|AT)\s+(.+)$/i;
const REGION_RANGE = /^\s*ANY\s+(.+?)\s+(?:SEA\s*)?PORTS?\s*$/i;

function portWords(text: string): string[] {
  const country = findCountryIn(text);
  let upper = text.toUpperCase();
  if (country) upper = upper.replace(new RegExp(`\\b${country.toUpperCase()}\\b`, "g"), " ");
  return upper
    .replace(/\b(?:U\.?\s?A\.?\s?E|P\.?\s?R\.?\s?C|U\.?\s?S\.?\s?A|U\.?\s?K)\b\.?/g, " ")
    .split(/[^A-Z0-9]+/)
    .filter((w) => w.length > 1 && !PORT_NOISE.has(w));
}

export type PortVerdict = "same" | "different" | "unknown";

/** A place name has a word of three letters or more; "bk i of" is OCR debris, not a port. */
export function isPlausiblePlace(text: string): boolean {
  return /[A-Za-z]{3}/.test(text);
}

/** Compares two named ports: same name words (or one contained in the other), else different when both have words. */
export function comparePorts(a: string, b: string): PortVerdict {
  if (!isPlausiblePlace(a) || !isPlausiblePlace(b)) return "unknown";
  const x = portWords(a);
  const y = portWords(b);
  if (!x.length || !y.length) return "unknown";
  const countryA = findCountryIn(a);
  const countryB = findCountryIn(b);
  if (countryA && countryB && countryA !== countryB) return "different";
  const [short, long] = x.length <= y.length ? [x, new Set(y)] : [y, new Set(x)];
  if (short.every((w) => long.has(w))) return "same";
  // OCR splits and misreads words ("YO IKOHAMA, J PAN"): look for the shorter name inside the longer, allowing a few edits.
  const [needle, haystack] = [short.join(""), [...long].join("")];
  return substringDistance(haystack, needle) <= Math.floor(needle.length * OCR_EDIT_SHARE) ? "same" : "different";
}

/** A credit port that names a range rather than a port. */
export function isPortRange(text: string): boolean {
  return RANGE.test(text) || REGION_RANGE.test(text);
}

/**
 * Whether an actual port meets the credit's port or range. For a range we need
 * the country of both; a place named inside the range ("ABU DHABI" in "ANY
 * SEAPORT IN ABU DHABI, UAE") must also appear in the actual port.
 */
export function portMeetsCredit(creditPort: string, actual: string): PortVerdict {
  const range = RANGE.exec(creditPort);
  if (!range) return REGION_RANGE.test(creditPort) ? "unknown" : comparePorts(creditPort, actual);
  const area = range[1]!;
  const areaCountry = findCountryIn(area);
  const actualCountry = findCountryIn(actual);
  if (!areaCountry || !actualCountry) return "unknown";
  if (areaCountry !== actualCountry) return "different";
  const places = portWords(area);
  if (!places.length) return "same";
  const actualWords = new Set(portWords(actual));
  return places.every((w) => actualWords.has(w)) ? "same" : "unknown";
}
