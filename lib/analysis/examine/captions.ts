/**
 * Values that are captions: a reader that pairs a label with the wrong text
 * returns the next label, or the document's title, as the value ("BILL OF
 * LADING" as the vessel, "PORT OF DISCHARGE" as the port of loading). Such a
 * value states nothing, so it cannot conflict with anything: the examination
 * sets it aside and says so.
 */
import { DOCUMENT_TYPES } from "../schema";
import type { Fields } from "./fields";

/**
 * Words that trade documents print as titles and field labels. Words that are
 * also values ("TO ORDER", "SEA", "PREPAID", a country) are not among them.
 */
const LABEL_WORDS = [
  "BILL", "BILLS", "LADING", "B/L", "BL", "OF", "NO", "NO.", "NUMBER", "NOS", "REF", "REFERENCE", "VESSEL", "VOYAGE", "VOY",
  "VSL", "NAME", "PORT", "PORTS", "LOADING", "DISCHARGE", "PLACE", "RECEIPT", "DELIVERY", "FINAL", "DESTINATION",
  "SHIPPER", "EXPORTER", "CONSIGNOR", "CONSIGNEE", "NOTIFY", "PARTY", "PARTIES", "ADDRESS", "APPLICANT", "BENEFICIARY",
  "SELLER", "BUYER", "MESSRS", "ISSUER", "CARRIER", "AGENT", "DATE", "ISSUE", "ISSUED", "COUNTRY", "GROSS", "NET",
  "WEIGHT", "WEIGHTS", "PACKAGES", "MARKS", "NUMBERS", "DESCRIPTION", "GOODS", "QUANTITY", "TOTAL", "AMOUNT",
  "CERTIFICATE", "COMMERCIAL", "INVOICE", "PACKING", "LIST", "MEANS", "TRANSPORT", "CONVEYANCE", "PRE-CARRIAGE",
  "CARRIAGE", "AND", "/", "&", ":", "-", "FLAG", "SIGNATURE", "STAMP", "PAGE", "ORIGINAL", "COPY", "KIND",
];

/** Title words of every document type ("CERTIFICATE", "ORIGIN", "PHYTOSANITARY"...) are labels too. */
const CAPTION_WORDS = new Set([
  ...LABEL_WORDS,
  ...Object.values(DOCUMENT_TYPES).flatMap((t) => t.label.toUpperCase().split(/\s+/)),
]);
CAPTION_WORDS.delete("OTHER");

/** Titles of several words ("BILL OF LADING", "CERTIFICATE OF ORIGIN"): a name, place or reference never contains one. */
const TITLES = Object.values(DOCUMENT_TYPES).map((t) => t.label.toUpperCase()).filter((t) => t.includes(" "));

/** A value made of label and title words only, or holding a document's title, without a digit. */
export function looksLikeCaption(value: string): boolean {
  if (/\d/.test(value)) return false;
  const words = value.toUpperCase().replace(/[.:,()]/g, " ").split(/\s+/).filter(Boolean);
  if (TITLES.some((title) => ` ${words.join(" ")} `.includes(` ${title} `))) return true;
  return words.length > 0 && words.some((w) => /[A-Z]{2}/.test(w)) && words.every((w) => CAPTION_WORDS.has(w));
}

/**
 * Keys whose value names a party, a place, a vessel or a reference: a caption
 * there is a misread. (A treatment may truly be "FUMIGATION".)
 */
const NAMING_KEY = /(?:^|_)(?:vessel|voyage|port|place|country|consignee|notify|shipper|exporter|importer|consignor|seller|buyer|applicant|beneficiary|carrier|issuer|authority|bank|number)(?:_|$)/;

/** A port or place that is a party's name or an order clause: the reader took the neighbouring box. */
const PLACE_KEY = /(?:^|_)(?:port|place)(?:_|$)/;
const NOT_A_PLACE = /\b(?:L\.?L\.?C|W\.?L\.?L|LTD|LIMITED|INC|GMBH|PLC|JSC|PJSC|CO\.,?|BANK|TRADING|ORDER\s+OF)\b/i;

export interface SetAside {
  key: string;
  value: string;
}

/** The fields without their caption values, and the values set aside. */
export function withoutCaptions(fields: Fields): { fields: Fields; setAside: SetAside[] } {
  const setAside: SetAside[] = [];
  const kept: Fields = {};
  for (const [key, value] of Object.entries(fields)) {
    const misplaced = typeof value === "string" && PLACE_KEY.test(key) && NOT_A_PLACE.test(value);
    if (typeof value === "string" && ((NAMING_KEY.test(key) && looksLikeCaption(value)) || misplaced)) setAside.push({ key, value });
    else kept[key] = value;
  }
  return { fields: setAside.length ? kept : fields, setAside };
}
