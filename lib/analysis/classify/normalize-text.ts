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

/** A page's normalised text with its word set, so phrases whose words are absent are rejected without a scan. */
export interface IndexedText {
  padded: string;
  words: ReadonlySet<string>;
}

export function indexText(normalized: string): IndexedText {
  return { padded: pad(normalized), words: new Set(normalized.split(" ")) };
}

/** A phrase prepared for matching: its padded form and its rarest-looking (longest) word. */
export interface Phrase {
  text: string;
  padded: string;
  key: string;
}

export function preparePhrase(text: string): Phrase {
  const key = text.split(" ").reduce((a, b) => (b.length > a.length ? b : a), "");
  return { text, padded: ` ${text} `, key };
}

export function containsPhrase(indexed: IndexedText, phrase: Phrase): boolean {
  return indexed.words.has(phrase.key) && indexed.padded.includes(phrase.padded);
}
