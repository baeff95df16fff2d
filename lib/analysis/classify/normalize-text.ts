/**
 * Folds text for phrase matching: upper case, every run of characters other than
 * letters and digits becomes one space. "B/L No.:" → "B L NO". Accented Latin
 * letters keep their base letter so "CERTIFICAT D'ORIGINE" still matches "ORIGINE".
 */
export function normalizeText(text: string): string {
  return text
    .normalize("NFKD")
    .toUpperCase()
    .replace(/[^A-Z0-9]+/g, " ")
    .trim();
}

/** True when the normalised haystack holds the phrase as whole words. Haystack is padded with spaces. */
export function hasPhrase(paddedHaystack: string, phrase: string): boolean {
  return paddedHaystack.includes(` ${phrase} `);
}

/** Pads a normalised text so that hasPhrase matches at its edges too. */
export function pad(normalized: string): string {
  return ` ${normalized} `;
}
