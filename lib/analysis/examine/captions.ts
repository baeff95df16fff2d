/**
 * Values that are captions: a reader that pairs a label with the wrong text
 * returns the next label, or the document's title, as the value ("BILL OF
 * LADING" as the vessel, "PORT OF DISCHARGE" as the port of loading). Such a
 * value states nothing, so it cannot conflict with anything: the examination
 * sets it aside and says so.
 */
import { LABEL_SYNONYMS, STOP_LABELS } from "../extract/label-vocab";
import { DOCUMENT_TYPES } from "../schema";
import type { Evidence } from "../types";
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

/**
 * Caption words trade documents print that no extraction label holds: dates
 * and places of production or survey, hours of exposure, abbreviations of
 * the box titles.
 */
const MORE_LABEL_WORDS = ["PRODUCTION", "MANUFACTURE", "SURVEY", "HRS", "HOURS", "CNTR", "QTY", "PKGS", "TEL", "FAX", "E-MAIL", "EMAIL", "EQUIPMENT", "TYPE", "SIZE", "PROFORMA"];

/**
 * Words of the engine's label vocabulary that are also whole values or their
 * core: an order clause ("TO ORDER", "TO THE ORDER OF ... BANK"), a mode ("BY SEA").
 * "TO" and "THE" stay caption words ("Deliver to"): without ORDER no clause is left.
 */
const VALUE_WORDS = new Set(["ORDER", "BANK", "SEA", "AIR"]);

/**
 * One word's stem, so that a label's inflections are one caption word:
 * LOAD / LOADING, DISCHARGE / DISCHARGING, SURVEY / SURVEYOR, DELIVER /
 * DELIVERY, NO / NOS. Two endings at most come off, the same on both sides.
 */
function stem(word: string): string {
  let bare = word.replace(/[^A-Z0-9/&-]/g, "");
  if (bare.length <= 4) return bare.replace(/S$/, "");
  for (let i = 0; i < 2 && bare.length > 4; i++) bare = bare.replace(/(?:ING|ED|ES|OR|ER|S|E|Y)$/, "");
  return bare;
}

function wordsOf(text: string): string[] {
  return text.toUpperCase().replace(/[.:,()#]/g, " ").split(/\s+/).filter(Boolean);
}

/**
 * Every word of the engine's labels (the extraction vocabulary, its stop
 * labels, the title of every document type) is a caption word: a value made
 * of them alone is a box title the reader paired with the wrong box.
 */
const CAPTION_WORDS = new Set(
  [
    ...LABEL_WORDS, ...MORE_LABEL_WORDS,
    ...[...Object.values(LABEL_SYNONYMS).flat(), ...STOP_LABELS].flatMap(wordsOf).filter((w) => !VALUE_WORDS.has(w)),
    ...Object.values(DOCUMENT_TYPES).flatMap((t) => t.label.toUpperCase().split(/\s+/)),
  ].map(stem),
);
CAPTION_WORDS.delete("OTHER");

/** Titles of several words ("BILL OF LADING", "CERTIFICATE OF ORIGIN"): a name, place or reference never contains one. */
const TITLES = Object.values(DOCUMENT_TYPES).map((t) => t.label.toUpperCase()).filter((t) => t.includes(" "));

/** A value made of label and title words only, or holding a document's title, without a digit. */
export function looksLikeCaption(value: string): boolean {
  if (/\d/.test(value)) return false;
  // A bracketed note is a label's unit or gloss ("Min. Temperature (C)", "Consignee (name and address)").
  const words = wordsOf(value.replace(/\([^)]*\)/g, " ").trim() || value);
  if (TITLES.some((title) => ` ${words.join(" ")} `.includes(` ${title} `))) return true;
  return words.length > 0 && words.some((w) => /[A-Z]{2}/.test(w)) && words.every((w) => CAPTION_WORDS.has(stem(w)));
}

/** A label ends with its colon: the read text shows the value followed by ":" ("Load Port:"). */
function followedByColon(value: string, evidence: Evidence | undefined): boolean {
  const text = evidence?.text?.toUpperCase();
  return text !== undefined && new RegExp(`${value.toUpperCase().replace(/[.*+?^${}()|[\]\\]/g, "\\$&")}\\s*:`).test(text);
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

/** The fields without their caption values, and the values set aside (`evidence`: how each was read, when known). */
export function withoutCaptions(fields: Fields, evidence?: Record<string, Evidence>): { fields: Fields; setAside: SetAside[] } {
  const setAside: SetAside[] = [];
  const kept: Fields = {};
  for (const [key, value] of Object.entries(fields)) {
    const misplaced = typeof value === "string" && PLACE_KEY.test(key) && NOT_A_PLACE.test(value);
    const caption = typeof value === "string" && NAMING_KEY.test(key) && (looksLikeCaption(value) || followedByColon(value, evidence?.[key]));
    if (typeof value === "string" && (caption || misplaced)) setAside.push({ key, value });
    else kept[key] = value;
  }
  return { fields: setAside.length ? kept : fields, setAside };
}
