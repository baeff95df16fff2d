/** Countries as printed → English short name ("P.R. CHINA" → "China", "U.S.A." → "United States"). */
import { COUNTRY_ADJECTIVES, COUNTRY_ENTRIES } from "./country-names";
import { allMatches } from "./matches";

/**
 * Codes are too ambiguous inside running text ("IN", "TO", "ARE", "CAN"): only
 * names longer than this, or the usual abbreviations below, are looked for there.
 */
const CODE_LENGTH_LIMIT = 3;
const RUNNING_TEXT_ABBREVIATIONS = new Set(["UAE", "USA", "PRC", "KSA"]);

function keyOf(text: string): string {
  return text
    .normalize("NFD")
    .replace(/[\u0300-\u036f]/g, "")
    .toUpperCase()
    .replace(/[^A-Z0-9]+/g, " ")
    .trim();
}

const BY_KEY = new Map<string, string>();
for (const entry of COUNTRY_ENTRIES) {
  const [name, ...variants] = entry.split("|");
  for (const variant of [name!, ...variants]) BY_KEY.set(keyOf(variant), name!);
}

/** Longest variant first, so "UNITED STATES OF AMERICA" wins over "AMERICA". */
const NAME_KEYS = [...BY_KEY.keys()]
  .filter((k) => {
    const letters = k.replace(/ /g, "");
    return letters.length > CODE_LENGTH_LIMIT || RUNNING_TEXT_ABBREVIATIONS.has(letters);
  })
  .sort((a, b) => b.length - a.length);
const NAME_PATTERN = new RegExp(`(?:^| )(${NAME_KEYS.join("|")})(?= |$)`, "g");

/** The English short name of a country given whole ("KOREA, REPUBLIC OF", "USA", "DE"), or undefined. */
export function normalizeCountry(text: string): string | undefined {
  let key = keyOf(text).replace(/^(?:THE|MADE IN|ORIGIN) /, "").replace(/ ORIGIN$/, "");
  const reversed = /^(.+) (REPUBLIC OF|PEOPLE S REPUBLIC OF|ISLAMIC REPUBLIC OF|KINGDOM OF|STATE OF)$/.exec(key);
  if (reversed) key = `${reversed[2]} ${reversed[1]}`;
  return BY_KEY.get(key) ?? COUNTRY_ADJECTIVES[key];
}

/** The last country named inside running text, such as the end of an address; codes are not considered. */
export function findCountryIn(text: string): string | undefined {
  const key = keyOf(text);
  let last: string | undefined;
  for (const m of allMatches(NAME_PATTERN, key)) last = BY_KEY.get(m[1]!) ?? last;
  if (last) return last;
  for (const word of key.split(" ").reverse()) if (COUNTRY_ADJECTIVES[word]) return COUNTRY_ADJECTIVES[word];
  return undefined;
}
