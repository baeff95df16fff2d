/**
 * SWIFT fields read from a credit's page text, for the terms the extraction
 * does not carry: :44D: (shipment period) and the fields of an MT707
 * amendment, whose :32B:/:33B: are an increase or decrease (not the amount)
 * and whose :45B:/:46B:/:47B: are ADD/DELETE/REPALL changes (not the lists).
 * Both raw messages (":32B:USD10000,00") and bank printouts ("32B: Increase
 * of Documentary Credit Amount" with the value on the following lines) are read.
 */

/** A tag at the start of a line: ":44D:", "44D:", "F44D:". */
const TAG_LINE = /^\s*(?::|F)?(\d{2}[A-Z]?)\s?:\s*(.*)$/;
/** Separators and envelope lines of a printout, never part of a field. */
const FRAME = /-{5,}|={5,}|END OF MESSAGE|^\s*MESSAGE (?:TEXT|TRAILER|HEADER)\b/i;
/** Field titles of MT700/MT707 printouts; the value follows (on the same line after a colon, or below). */
const TITLE =
  /^(?:SENDER'?S?\s+REFERENCE|RECEIVER'?S?\s+REFERENCE|DOCUMENTARY\s+CREDIT\s+NUMBER|ISSUING\s+BANK'?S?\s+REFERENCE|NUMBER\s+OF\s+AMENDMENT|DATE\s+OF\s+(?:AMENDMENT|ISSUE)|DATE\s+AND\s+PLACE\s+OF\s+EXPIRY|NEW\s+DATE\s+OF\s+EXPIRY|NEW\s+DOCUMENTARY\s+CREDIT\s+AMOUNT(?:\s+AFTER\s+AMENDMENT)?|(?:INCREASE|DECREASE)\s+OF\s+DOCUMENTARY\s+CREDIT\s+AMOUNT|CURRENCY\s+CODE,?\s+AMOUNT|PERCENTAGE\s+CREDIT\s+AMOUNT\s+TOLERANCE|LATEST\s+DATE\s+OF\s+SHIPMENT|SHIPMENT\s+PERIOD|PORT\s+OF\s+(?:LOADING|DISCHARGE)(?:\s*\/\s*AIRPORT\s+OF\s+(?:DEPARTURE|DESTINATION))?|AIRPORT\s+OF\s+(?:DEPARTURE|DESTINATION)|DESCRIPTION\s+OF\s+GOODS(?:\s+AND\/OR\s+SERVICES)?|DOCUMENTS\s+REQUIRED|ADDITIONAL\s+CONDITIONS|PARTIAL\s+SHIPMENTS|TRANSHIPMENT|PERIOD\s+FOR\s+PRESENTATION(?:\s+IN\s+DAYS)?|PURPOSE\s+OF\s+MESSAGE|FORM\s+OF\s+DOCUMENTARY\s+CREDIT|APPLICABLE\s+RULES|NARRATIVE)\b\s*:?\s*/i;

/** Every occurrence of a tag with its value lines (title left out), in text order. */
export interface TagValue {
  tag: string;
  lines: string[];
}

export function readSwiftTags(text: string): TagValue[] {
  const fields: TagValue[] = [];
  let current: TagValue | undefined;
  for (const raw of text.split(/\r?\n/)) {
    const line = raw.trim();
    const tag = TAG_LINE.exec(line);
    if (tag) {
      current = { tag: tag[1]!, lines: [] };
      fields.push(current);
      let rest = tag[2]!.trim();
      const title = TITLE.exec(rest);
      if (title) rest = rest.slice(title[0].length).trim();
      if (rest) current.lines.push(rest);
      continue;
    }
    if (!current) continue;
    if (FRAME.test(line)) {
      current = undefined;
      continue;
    }
    if (line) current.lines.push(line);
  }
  return fields;
}

/** The first occurrence's value, lines joined by `separator`; undefined when the tag is absent or empty. */
export function tagText(tags: TagValue[], tag: string, separator = " "): string | undefined {
  const field = tags.find((t) => t.tag === tag);
  const text = field?.lines.join(separator).trim();
  return text ? text : undefined;
}

/** An MT707 (amendment to a documentary credit), by its name or by :26E: (number of amendment). */
const AMENDMENT_MARK = /\bMT\s?707\b|AMENDMENT\s+TO\s+(?:A\s+)?DOCUMENTARY\s+CREDIT|NUMBER\s+OF\s+AMENDMENT/i;
/** Where an MT707 begins: its name (a printout names it once or twice before its fields). */
const AMENDMENT_START = /\bMT\s?707\b|AMENDMENT\s+TO\s+(?:A\s+)?DOCUMENTARY\s+CREDIT/gi;
/** The issuing message: MT700, or its form-of-credit field. */
const ISSUE_MARK = /\bMT\s?70[01]\b|ISSUE\s+OF\s+A\s+DOCUMENTARY\s+CREDIT|^\s*:?40A\s?:/im;

export function isAmendmentText(text: string | undefined): boolean {
  if (!text) return false;
  return AMENDMENT_MARK.test(text) || readSwiftTags(text).some((t) => t.tag === "26E");
}

/**
 * A credit document's text as messages: the issuing message (if any) and each
 * MT707 after it. One split often holds the MT700 and its amendments, since
 * they are pages of one type; the extraction then read the MT700's fields (the
 * first occurrence of each tag), and the amendments are applied on top.
 */
export function splitMessages(text: string | undefined): { issue?: string; amendments: string[] } {
  if (!text || !isAmendmentText(text)) return { issue: text, amendments: [] };
  const starts = [...text.matchAll(AMENDMENT_START)].map((m) => m.index!);
  if (!starts.length) return { amendments: [text] };
  const head = text.slice(0, starts[0]);
  const segments = starts.map((start, i) => text.slice(start, starts[i + 1] ?? text.length));
  // A printout names the message in its header and its title: a part without fields belongs to the next.
  const amendments: string[] = [];
  let pending = "";
  for (const segment of segments) {
    pending += segment;
    if (readSwiftTags(pending).length) {
      amendments.push(pending);
      pending = "";
    }
  }
  if (pending && amendments.length) amendments[amendments.length - 1] += pending;
  else if (pending) amendments.push(pending);
  return ISSUE_MARK.test(head) ? { issue: head, amendments } : { amendments: amendments.map((a, i) => (i === 0 ? head + a : a)) };
}

/** A credit's :44D:, or a letter-form credit's "Shipment period:" line. */
const PERIOD_LABEL = /^\s*SHIPMENT\s+PERIOD\s*:\s*(.+)$/im;

export function shipmentPeriodText(text: string | undefined): string | undefined {
  if (!text) return undefined;
  const tagged = tagText(readSwiftTags(text), "44D");
  if (tagged) return tagged;
  return PERIOD_LABEL.exec(text)?.[1]?.trim() || undefined;
}
