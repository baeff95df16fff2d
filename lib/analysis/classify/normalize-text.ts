/** Only text with non-ASCII characters has anything for NFKD to decompose. */
const NON_ASCII = /[^\u0000-\u007f]/;

/**
 * Folds text for phrase matching: upper case, every run of characters other than
 * letters and digits becomes one space. "B/L No.:" → "B L NO". Accented Latin
 * letters keep their base letter so "CERTIFICAT D'ORIGINE" still matches "ORIGINE".
 */
export function normalizeText(text: string): string {
  return (NON_ASCII.test(text) ? text.normalize("NFKD") : text)
    .toUpperCase()
    .replace(/[^A-Z0-9]+/g, " ")
    .trim();
}

/** Pads a normalised text so that a padded phrase matches at its edges too. */
export function pad(normalized: string): string {
  return ` ${normalized} `;
}

/** A page's normalised text with its word set, so phrases whose words are absent are rejected without a scan. */
export interface IndexedText {
  padded: string;
  words: ReadonlySet<string>;
}

export function indexText(normalized: string): IndexedText {
  const words = new Set(normalized.split(" "));
  words.delete("");
  return { padded: pad(normalized), words };
}

/** A phrase prepared for matching: its padded form, its rarest-looking (longest) word under which it is looked up, and its other words. */
export interface Phrase {
  text: string;
  padded: string;
  key: string;
  others: readonly string[];
}

export function preparePhrase(text: string): Phrase {
  const words = text.split(" ");
  const key = words.reduce((a, b) => (b.length > a.length ? b : a), "");
  return { text, padded: ` ${text} `, key, others: [...new Set(words.filter((w) => w !== key && w !== ""))] };
}

/** True when the indexed text holds the phrase as whole words; the word set rules most phrases out before the text is scanned. */
export function containsPhrase(indexed: IndexedText, phrase: Phrase): boolean {
  if (!indexed.words.has(phrase.key)) return false;
  for (const word of phrase.others) if (!indexed.words.has(word)) return false;
  return indexed.padded.includes(phrase.padded);
}
