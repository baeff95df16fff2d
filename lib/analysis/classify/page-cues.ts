import type { Page } from "../types";

/** Page-wide cues other than titles: an e-mail's header block, a schedule's count columns. */

/** An e-mail's header block is printed in this top share of the page. */
const EMAIL_REGION_SHARE = 0.4;
/** Lines whose baselines differ by less than this share of the font size form one row. */
const COUNT_ROW_TOLERANCE = 0.3;
/** A column header is short: "Documents  Orig.  Copies". */
const COUNT_HEADER_MAX_WORDS = 8;
const ORIGINAL_WORDS = new Set(["ORIGINAL", "ORIGINALS", "ORIG", "ORIGS", "ORIGINAUX"]);
const COPY_WORDS = new Set(["COPY", "COPIES", "COPIE", "COPIAS", "DUPLICATE"]);

/** A schedule of enclosures counts each document's originals and copies in two columns: one short row names both. */
export function headsCountColumns(page: Page, normalizedLines: readonly string[]): boolean {
  const rows = new Map<number, string[]>();
  page.lines.forEach((line, i) => {
    const words = (normalizedLines[i] ?? "").split(" ");
    if (!words.some((w) => ORIGINAL_WORDS.has(w) || COPY_WORDS.has(w))) return;
    const key = Math.round((line.y + line.height) / Math.max(1, COUNT_ROW_TOLERANCE * line.fontSize));
    rows.set(key, [...(rows.get(key) ?? []), ...words]);
  });
  for (const words of rows.values()) {
    if (words.length <= COUNT_HEADER_MAX_WORDS && words.some((w) => ORIGINAL_WORDS.has(w)) && words.some((w) => COPY_WORDS.has(w))) return true;
  }
  return false;
}

/** At least this many e-mail header fields, one of them a subject or a sent date, in the title region. */
const EMAIL_MIN_FIELDS = 3;
const EMAIL_FIELDS = new Set(["FROM", "TO", "CC", "DATE", "SENT", "SUBJECT", "DA", "A", "INVIATO", "OGGETTO", "DE", "PARA", "ENVIADO", "ASUNTO", "VON", "AN", "GESENDET", "BETREFF", "ENVOYE", "OBJET", "À"]);
const EMAIL_KEY_FIELDS = new Set(["SENT", "SUBJECT", "INVIATO", "OGGETTO", "ENVIADO", "ASUNTO", "GESENDET", "BETREFF", "ENVOYE", "OBJET"]);
const EMAIL_FIELD = /^\s*([A-Za-zÀ-ÿ]+)\s*:/;

export function hasEmailHeader(page: Page, normalizedLines: readonly string[]): boolean {
  const fields = new Set<string>();
  page.lines.forEach((line, i) => {
    if (page.height > 0 && line.y >= EMAIL_REGION_SHARE * page.height) return;
    const name = EMAIL_FIELD.exec(line.text)?.[1];
    // A normalised line is already upper-case ASCII: only a raw field name needs folding.
    const field = name !== undefined ? name.normalize("NFKD").replace(/[^A-Za-z]/g, "").toUpperCase() : normalizedLines[i]?.replace(/[^A-Z]/g, "");
    if (field && EMAIL_FIELDS.has(field)) fields.add(field);
  });
  return fields.size >= EMAIL_MIN_FIELDS && [...fields].some((f) => EMAIL_KEY_FIELDS.has(f));
}

