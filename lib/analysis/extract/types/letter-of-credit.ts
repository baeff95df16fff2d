/**
 * Letter of credit: MT700 tags first (raw or printout), then the labels of a
 * letter-form credit ("L/C No.", "Applicant", "Expiry date"...). The issuing
 * bank is the message sender and the advising bank its receiver.
 */
import { parseAmount, findNumbers } from "../../normalize/amount";
import { normalizeCurrency } from "../../normalize/currency";
import { findDates, parseDate } from "../../normalize/date";
import { normalizeIncoterm } from "../../normalize/incoterms";
import { normalizePort } from "../../normalize/port";
import { normalizePermission } from "../../normalize/terms";
import { cleanValue } from "../../normalize/text";
import type { ExtractionContext } from "../context";
import { dropLabels } from "../document";
import { findLabelled } from "../find-value";
import { foundOf, narrowFound, type Found } from "../found";
import { parseTags, splitItems, stripMarker, tagValue, type TagField } from "../mt700";
import { readDocumentList } from "./document-list";

const BIC = /^[A-Z]{6}[A-Z0-9]{2}(?:[A-Z0-9]{3})?$/;
/** "ABOUT"/"APPROXIMATELY" before an amount or quantity allows 10% either way (UCP 600 art. 30 a). */
const ABOUT_TOLERANCE_PCT = 10;
const BANK_LINES = 4;
/** Lines a letter-form list of required documents may span. */
const DOCUMENT_LINES = 30;
const INCOTERM_OPENING = /^\s*(?:EXW|FCA|FAS|FOB|CFR|CIF|CPT|CIP|DAP|DPU|DDP|C&F)\b/i;
const REQUEST_OF = /AT THE REQUEST OF\s+(.+?)(?:\s*,|\s+WE\b|\s+HAS\b|$)/i;
const BANK_NAME = /\b(?:BANK|BANCO|BANQUE|BANCA|BERHAD)\b/i;

function lineTexts(found: Found): string[] {
  return found.parts.map((p) => cleanValue(p.line.text.slice(p.start, p.end))).filter(Boolean);
}

function bankName(found: Found): string | undefined {
  const lines = lineTexts(found).map((l) => l.replace(/^:\s*/, "")).filter(Boolean);
  return lines.find((l) => !BIC.test(l)) ?? lines[0];
}

function setParty(ctx: ExtractionContext, key: string, field: TagField | undefined): void {
  const found = tagValue(field);
  if (!found) return;
  const parts = found.parts.filter((p) => !/^\s*\//.test(p.line.text.slice(p.start, p.end)));
  if (parts.length === 0) return;
  ctx.set(key, cleanValue(parts[0]!.line.text.slice(parts[0]!.start, parts[0]!.end)), foundOf(parts.slice(0, 1), found.confidence));
  const rest = parts.slice(1);
  if (rest.length > 0) ctx.set(`${key}_address`, lineTexts(foundOf(rest, 1)).join(" "), foundOf(rest, found.confidence));
}

function setTolerance(ctx: ExtractionContext, text: string, found: Found): void {
  const pair = /(\d{1,2})\s*\/\s*(\d{1,2})/.exec(text);
  const single = /\+\s*\/?\s*-\s*(\d{1,2}(?:\.\d+)?)\s*(?:%|PCT|PERCENT)/i.exec(text);
  const plus = pair ? Number(pair[1]) : single ? Number(single[1]) : undefined;
  const minus = pair ? Number(pair[2]) : plus;
  if (plus === undefined || minus === undefined) return;
  ctx.set("tolerance_plus_pct", plus, found);
  ctx.set("tolerance_minus_pct", minus, found);
}

function setAvailable(ctx: ExtractionContext, found: Found | undefined): void {
  if (!found) return;
  const text = cleanValue(found.text);
  const m = /^(.*?)\s*\bBY\s+(.+)$/i.exec(text);
  const withText = cleanValue(m ? m[1]! : text);
  const firstLine = lineTexts(found)[0] ?? "";
  const names = BIC.test(firstLine) && withText !== firstLine ? cleanValue(withText.slice(firstLine.length)) : withText;
  if (names) ctx.set("available_with", names, found);
  if (m) ctx.set("available_by", cleanValue(m[2]!), found);
}

/** 45A as printed (whole field), and the Incoterm named in it. */
function setGoods(ctx: ExtractionContext, found: Found | undefined): void {
  if (!found) return;
  const text = cleanValue(found.text);
  if (text) ctx.set("description_of_goods", text, found);
  for (const part of found.parts) {
    const line = part.line.text.slice(part.start, part.end);
    const incoterm = INCOTERM_OPENING.test(line) || /TERMS?\s*:/i.test(line) ? normalizeIncoterm(line.replace(/^.*TERMS?\s*:/i, "")) : undefined;
    if (incoterm) return ctx.set("incoterms", incoterm, foundOf([part], found.confidence));
  }
}

/**
 * A tagged field's value lines are the tag's value, never labels of their
 * own: a wrapped 71D ("ALL BANKING CHARGES OUTSIDE / ISSUING BANK ARE FOR
 * BENEFICIARY") must not give the issuing bank, nor a 46A line the consignee.
 * The tag's own line keeps its hits (a raw ":59:" opens on the value).
 */
function forgetValueLabels(ctx: ExtractionContext, tags: ReadonlyMap<string, TagField>): void {
  const values = new Set<number>();
  for (const field of tags.values()) for (const part of field.parts) if (part.start === 0) values.add(part.line.id);
  if (values.size > 0) dropLabels(ctx.doc, values);
}

function readTagged(ctx: ExtractionContext): void {
  const tags = parseTags(ctx.doc);
  if (tags.size === 0) return;
  forgetValueLabels(ctx, tags);
  const dc = ctx.doc.dateContext;
  const text = (tag: string) => tagValue(tags.get(tag));
  const set = (key: string, tag: string, parse: (t: string) => unknown) => {
    const found = text(tag);
    if (found) ctx.set(key, parse(found.text), found);
  };
  set("lc_number", "20", (t) => cleanValue(t).split(" ")[0]);
  set("form_of_credit", "40A", cleanValue);
  set("date_of_issue", "31C", (t) => parseDate(t, dc, { compact: true }));
  set("applicable_rules", "40E", cleanValue);
  const expiry = text("31D");
  if (expiry) {
    const date = findDates(expiry.text, dc, { compact: true })[0];
    if (date) {
      ctx.set("expiry_date", date.iso, narrowFound(expiry, date.index, date.index + date.length));
      const place = cleanValue(expiry.text.slice(date.index + date.length));
      if (place) ctx.set("expiry_place", place, expiry);
    }
  }
  setParty(ctx, "applicant", tags.get("50"));
  setParty(ctx, "beneficiary", tags.get("59"));
  const tolerance = text("39A");
  if (tolerance) setTolerance(ctx, tolerance.text, tolerance);
  const amount = text("32B");
  if (amount) {
    ctx.set("currency", normalizeCurrency(amount.text), amount);
    const cleaned = amount.text.replace(/TOLERANCE.*$/i, "");
    ctx.set("amount", parseAmount(cleaned.replace(/^[^:]*CURRENCY\s*:[^:]*?(?=AMOUNT)/i, "")), amount);
    if (/TOLERANCE/i.test(amount.text)) setTolerance(ctx, amount.text.replace(/^.*TOLERANCE/i, ""), amount);
  }
  setAvailable(ctx, text("41A") ?? text("41D"));
  set("partial_shipments", "43P", normalizePermission);
  set("transhipment", "43T", normalizePermission);
  set("place_of_receipt", "44A", normalizePort);
  set("port_of_loading", "44E", normalizePort);
  set("port_of_discharge", "44F", normalizePort);
  set("place_of_delivery", "44B", normalizePort);
  set("latest_shipment_date", "44C", (t) => parseDate(t, dc, { compact: true }));
  setGoods(ctx, text("45A"));
  const documents = splitItems(tags.get("46A"));
  if (documents.length > 0) ctx.set("documents_required", documents.map((d) => stripMarker(cleanValue(d.text))).filter(Boolean), text("46A")!);
  const conditions = splitItems(tags.get("47A"));
  if (conditions.length > 0) ctx.set("additional_conditions", conditions.map((d) => stripMarker(cleanValue(d.text))).filter(Boolean), text("47A")!);
  set("presentation_period_days", "48", (t) => findNumbers(t)[0]?.value);
  set("confirmation_instructions", "49", cleanValue);
  const advising = text("ADVISING") ?? text("57A") ?? text("57D");
  if (advising && !ctx.doc.hitsByKey.has("advising_bank")) ctx.set("advising_bank", bankName(advising), advising);
}

/** A bank's advice: "At the request of <issuing bank> we advise..." under the advising bank's letterhead. */
function readAdviceBanks(ctx: ExtractionContext): void {
  for (const line of ctx.doc.lines) {
    const m = REQUEST_OF.exec(line.text);
    if (!m) continue;
    ctx.set("issuing_bank", cleanValue(m[1]!), narrowFound(foundOf([{ line, start: 0, end: line.text.length }], 0.8), m.index, m.index + m[0].length));
    const letterhead = ctx.doc.lines.find((l) => l.page === line.page && l.y0 < line.y0 && BANK_NAME.test(l.text));
    if (letterhead) ctx.set("advising_bank", cleanValue(letterhead.text), foundOf([{ line: letterhead, start: 0, end: letterhead.text.length }], 0.6));
    return;
  }
}

function readLetterForm(ctx: ExtractionContext): void {
  ctx.reference("lc_number", ["lc_number"]);
  ctx.text("form_of_credit", ["form_of_credit"]);
  ctx.date("date_of_issue", ["date"]);
  ctx.text("applicable_rules", ["applicable_rules"]);
  const expiry = findLabelled(ctx.doc, ["date_and_place_of_expiry", "expiry_date"], (f) => findDates(f.text, ctx.doc.dateContext, { compact: true })[0] && f);
  if (expiry) {
    const date = findDates(expiry.found.text, ctx.doc.dateContext, { compact: true })[0]!;
    ctx.set("expiry_date", date.iso, narrowFound(expiry.found, date.index, date.index + date.length));
    const place = cleanValue(expiry.found.text.slice(date.index + date.length));
    if (place && /[A-Z]{2}/i.test(place)) ctx.set("expiry_place", place, expiry.found);
  }
  ctx.text("expiry_place", ["expiry_place"]);
  const tolerance = findLabelled(ctx.doc, ["tolerance"], (f) => f);
  if (tolerance) setTolerance(ctx, tolerance.found.text, tolerance.found);
  ctx.party("applicant", "applicant_address", ["applicant"]);
  ctx.party("beneficiary", "beneficiary_address", ["beneficiary"]);
  readAdviceBanks(ctx);
  for (const key of ["issuing_bank", "advising_bank"]) {
    const result = findLabelled(ctx.doc, [key], (f) => bankName(f), { maxLines: BANK_LINES });
    if (result) ctx.set(key, result.value, result.found);
  }
  const amount = findLabelled(ctx.doc, ["total_amount", "currency"], (f) => (parseAmount(f.text) !== undefined ? f : undefined), { maxLines: 3 });
  if (amount) {
    ctx.set("currency", normalizeCurrency(amount.found.text), amount.found);
    ctx.set("amount", parseAmount(amount.found.text), amount.found);
    if (/\bABOUT\b|APPROX/i.test(amount.found.text)) {
      ctx.set("tolerance_plus_pct", ABOUT_TOLERANCE_PCT, amount.found);
      ctx.set("tolerance_minus_pct", ABOUT_TOLERANCE_PCT, amount.found);
    }
  }
  for (const line of ctx.doc.lines) {
    if (/TOLERANCE|MORE OR LESS/i.test(line.text)) setTolerance(ctx, line.text, foundOf([{ line, start: 0, end: line.text.length }], 0.8));
  }
  const available = findLabelled(ctx.doc, ["available_with"], (f) => f, { maxLines: 2 });
  if (available) setAvailable(ctx, available.found);
  for (const key of ["partial_shipments", "transhipment"]) {
    const result = findLabelled(ctx.doc, [key], (f) => normalizePermission(f.text));
    if (result) ctx.set(key, result.value, result.found);
  }
  ctx.port("port_of_loading", ["port_of_loading"]);
  ctx.port("port_of_discharge", ["port_of_discharge"]);
  ctx.port("place_of_receipt", ["place_of_receipt"]);
  ctx.port("place_of_delivery", ["place_of_delivery"]);
  ctx.date("latest_shipment_date", ["latest_shipment_date"]);
  const goods = findLabelled(ctx.doc, ["description"], (f) => f, { maxLines: 8 });
  if (goods) setGoods(ctx, goods.found);
  ctx.incoterm("incoterms", ["incoterms"]);
  readDocumentList(ctx, DOCUMENT_LINES);
  const presentation = findLabelled(ctx.doc, ["presentation_period"], (f) => findNumbers(f.text)[0]?.value);
  if (presentation) ctx.set("presentation_period_days", presentation.value, presentation.found);
  ctx.text("confirmation_instructions", ["confirmation"]);
}

export function extractLetterOfCredit(ctx: ExtractionContext): void {
  readTagged(ctx);
  readLetterForm(ctx);
}
