/**
 * How sure the examination is of the values a finding rests on. A checker
 * refuses documents for what they say, not for what a reader misread: a
 * conflict that a misread explains (a low-confidence read, a number read in
 * the other decimal convention, digits lost, a figure orders of magnitude off)
 * is reported as a warning that names the doubt, never as a discrepancy.
 */
import { formatNumber } from "./rule-kit";
import type { Doc } from "./presentation";
import type { Finding } from "./types";

/**
 * Below this confidence a read is doubtful. The extractors' scale puts a value
 * found by a fallback scan (no label) at 0.6 and a table cell at 0.8; a finding
 * resting on anything under the table's level needs a person to look.
 */
const LOW_CONFIDENCE = 0.7;

/**
 * Thousands separator and decimal mark swapped ("104.281" for 104,281, or
 * "2,08" for 2.08): the same digits, a factor of 1,000 apart.
 */
const CONVENTION_FACTORS = [1000, 0.001];

/** Figures of one shipment this many times apart are not a different fact but a misread. */
const IMPLAUSIBLE_RATIO = 50;

/** A lost or stray digit leaves a run of at least this many digits shared... */
const MIN_SHARED_DIGITS = 2;
/** ...and changes the figure's magnitude: 80 for 2,080, 280 for 2,080; never 50,000.01 for 50,000. */
const MIN_LOST_DIGIT_RATIO = 5;

/** The doubtful read of `key` on `doc`, in words, when its evidence says the engine was unsure of it. */
export function doubtfulRead(doc: Doc, key: string): string | undefined {
  const evidence = doc.evidence?.[key];
  if (!evidence || !(evidence.confidence < LOW_CONFIDENCE)) return undefined;
  const raw = evidence.text ? ` "${evidence.text}"` : "";
  return `${key} on the ${doc.type} (page ${evidence.page}) was read${raw} with confidence ${evidence.confidence.toFixed(2)}`;
}

function digitsOf(value: number): string {
  return formatNumber(Math.abs(value)).replace(/\D/g, "");
}

/**
 * Why a figure that conflicts with `expected` may be a misread of it, or
 * undefined when nothing but a real difference explains it. `agree` is the
 * rule's own tolerance, so a convention swap is recognised exactly as far as
 * the rule would have accepted the value.
 */
export function figureDoubt(found: number, expected: number, agree: (a: number, b: number) => boolean, what: string): string | undefined {
  if (expected === 0) return undefined;
  if (found === 0) return `${what} reads as 0, which no shipment states`;
  const factor = CONVENTION_FACTORS.find((f) => agree(found * f, expected));
  if (factor !== undefined) {
    return `${what} ${formatNumber(found)} reads as ${formatNumber(expected)} with thousands separator and decimal mark swapped`;
  }
  const ratio = Math.max(found / expected, expected / found);
  if (ratio >= IMPLAUSIBLE_RATIO) {
    return `${what} ${formatNumber(found)} is ${formatNumber(Math.round(ratio))} times ${found > expected ? "more" : "less"} than ${formatNumber(expected)}: more likely misread than true`;
  }
  const [a, b] = [digitsOf(found), digitsOf(expected)];
  const [short, long] = a.length < b.length ? [a, b] : [b, a];
  if (ratio >= MIN_LOST_DIGIT_RATIO && short.length >= MIN_SHARED_DIGITS && short.length < long.length && long.includes(short)) {
    return `${what} ${formatNumber(found)} shows the digits of ${formatNumber(expected)} with ${a.length < b.length ? "some lost" : "stray ones added"}`;
  }
  return undefined;
}

/** A printed figure, "20,976.000" or "20.976,000": both readings, since the convention is not known. */
const FIGURE = /\d[\d.,]*\d|\d/g;

function figuresIn(text: string): number[][] {
  return [...text.matchAll(FIGURE)].map(([token]) => [
    Number(token.replace(/,/g, "")),
    Number(token.replace(/\./g, "").replace(",", ".")),
  ].filter(Number.isFinite));
}

/** A weight is printed in kilograms, tonnes or pounds: the read figure in each, as kilograms. */
const UNIT_FACTORS = [1, 1000, 0.001, 0.45359237];

/**
 * What the text the reader took a figure from says against it: the line also
 * prints the other document's figure (a row of gross, tare and net read in
 * the wrong column), or it prints several figures and not this one (a sum or
 * a join the reader made, not a figure the document states).
 */
export function evidenceDoubt(doc: Doc, key: string, value: number, expected: number, agree: (a: number, b: number) => boolean, what: string): string | undefined {
  const text = doc.evidence?.[key]?.text;
  if (!text) return undefined;
  const figures = figuresIn(text);
  const shows = (n: number) => figures.some((readings) => readings.some((r) => UNIT_FACTORS.some((f) => agree(r * f, n))));
  if (figures.length >= 2 && shows(expected)) {
    return `the text ${what} was read from on the ${doc.type} ("${text.slice(0, 60)}") also prints ${formatNumber(expected)}: the reader may have taken the wrong column`;
  }
  if (figures.length >= 3 && !shows(value)) {
    return `${what} ${formatNumber(value)} is not printed on the ${doc.type}'s line read for it: the reader computed or joined it from several figures`;
  }
  return undefined;
}

/** Rules that compare party names: a name cut short at the edge of its box reads as another party. */
const NAME_RULES = new Set([
  "invoice.issued_by_beneficiary", "invoice.made_out_to_applicant", "bl.consignee_as_credit", "bl.notify_party_as_credit",
  "conditions.shipper_is_beneficiary", "consistency.consignee", "consistency.notify_party",
]);

function nameWords(name: string): string[] {
  return name.toUpperCase().replace(/^[^A-Z0-9]*/, "").replace(/^(?:TO\s+)?(?:THE\s+)?ORDER\s+OF\s+/, "").replace(/[^A-Z0-9&]+/g, " ").trim().split(" ").filter(Boolean);
}

/**
 * "AL NOOR FOODSTUFF" for "AL NOOR FOODSTUFF TRADING LLC": the words read are
 * the first words of the other name (cut at the box's edge), or most of its
 * last words ("AMBER BANK AS" for "NORDIC AMBER BANK AS": its first line lost).
 */
export function truncatedName(found: string, expected: string): boolean {
  const [a, b] = [nameWords(found), nameWords(expected)];
  const [short, long] = a.length < b.length ? [a, b] : [b, a];
  if (short.length === 0 || short.length >= long.length) return false;
  if (short.every((w, i) => w === long[i])) return true;
  const tail = long.slice(long.length - short.length);
  return short.length >= 2 && short.length * 2 >= long.length && short.every((w, i) => w === tail[i]);
}

/**
 * "SUNRISE PROVISIONS SDN KABULI CHICKPEAS" for "SUNRISE PROVISIONS SDN BHD":
 * most of the name's words, in order from its start, then other words — the
 * reader ran on into the text beside or below the name's box.
 */
export function runOnName(found: string, expected: string): boolean {
  const [a, b] = [nameWords(found), nameWords(expected)];
  let shared = 0;
  while (shared < a.length && shared < b.length && a[shared] === b[shared]) shared++;
  return shared >= 2 && shared * 2 > b.length && shared < a.length;
}

/**
 * The document whose name was read prints every word of the expected name,
 * and the name read opens like it: two boxes side by side were read as one
 * (a consignee's lines interleaved with the notify party's beside it).
 */
function printedOnDocument(found: string, expected: string, doc: Doc | undefined): boolean {
  if (!doc?.text) return false;
  const words = nameWords(expected);
  const text = new Set(nameWords(doc.text));
  return words.length >= 2 && nameWords(found)[0] === words[0] && words.every((w) => text.has(w));
}

function nameDoubt(finding: Finding, doc: Doc | undefined): string | undefined {
  if (!NAME_RULES.has(finding.rule) || !finding.found || !finding.expected) return undefined;
  const options = finding.expected.split(" / ");
  const cut = options.find((e) => truncatedName(finding.found!, e));
  if (cut) return `"${finding.found}" and "${cut}" are one name, one of them cut short`;
  const runOn = options.find((e) => runOnName(finding.found!, e));
  if (runOn) return `"${finding.found}" opens with most of "${runOn}": the rest may be text read on from beside the name`;
  const printed = options.find((e) => printedOnDocument(finding.found!, e, doc));
  return printed ? `the ${doc!.type} prints every word of "${printed}": its box may have been read together with the one beside it` : undefined;
}

/** The finding as a warning that names why its values are in doubt; a warning or info stays what it is. */
export function withDoubt(finding: Finding, doubts: string[]): Finding {
  if (finding.severity !== "discrepancy" || doubts.length === 0) return finding;
  const message = `${finding.message.replace(/\.$/, "")} — not called a discrepancy because ${doubts.join("; ")}: check the document.`;
  return { ...finding, severity: "warning", message };
}

/**
 * Every discrepancy whose values were read with low confidence becomes a
 * warning (the values of the finding's own keys on the documents it names),
 * and so does one between two party names of which one is the other cut short.
 */
export function weighReads(findings: Finding[], docs: Doc[]): Finding[] {
  const byId = new Map(docs.map((d) => [d.id, d]));
  return findings.map((finding) => {
    if (finding.severity !== "discrepancy") return finding;
    const doubts = finding.documents.flatMap((ref) => {
      const doc = byId.get(ref.id);
      return doc ? finding.fields.map((key) => doubtfulRead(doc, key)).filter((d) => d !== undefined) : [];
    });
    const cut = nameDoubt(finding, byId.get(finding.documents[0]?.id ?? ""));
    return withDoubt(finding, [...new Set(doubts), ...(cut ? [cut] : [])]);
  });
}
