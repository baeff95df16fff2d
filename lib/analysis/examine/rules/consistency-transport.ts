/**
 * Transport data that documents must not contradict (UCP 600 art. 14(d)):
 * containers, seals, vessel and voyage, ports. The bills of lading are the
 * reference; copies of one B/L must agree with each other in every respect.
 */
import { readList, readText } from "../fields";
import { comparePorts } from "../ports";
import { compactRef, docsOfType, groupCopies, type Doc, type Presentation } from "../presentation";
import { report, type RuleSpec } from "../rule-kit";
import { withDoubt } from "../doubt";
import { referenceKey, similarity } from "../similarity";
import { textShowsName } from "../text-shows";
import type { Finding } from "../types";

const CONTAINERS: RuleSpec = {
  id: "consistency.containers",
  reference: "UCP 600 art. 14(d)",
  severity: "discrepancy",
  title: "Container numbers agree with the bill of lading",
};
const SEALS: RuleSpec = {
  id: "consistency.seals",
  reference: "UCP 600 art. 14(d)",
  severity: "discrepancy",
  title: "Seal numbers agree between originals and copies of a B/L",
};
const VESSEL: RuleSpec = {
  id: "consistency.vessel",
  reference: "UCP 600 art. 14(d)",
  severity: "discrepancy",
  title: "Vessel and voyage agree with the bill of lading",
};
const PORTS: RuleSpec = {
  id: "consistency.ports",
  reference: "UCP 600 art. 14(d)",
  severity: "discrepancy",
  title: "Ports of loading and discharge agree with the bill of lading",
};

const VESSEL_PREFIX = /^(?:M\/V|M\.V\.|MV|M\/S|MS|S\/S|SS|VESSEL|PER)\s+/;
const VOYAGE_SUFFIX = /\s*(?:\/\s*|\b)(?:V(?:OY(?:AGE)?)?\.?\s*(?:NO\.?\s*)?)([A-Z0-9]*\d[A-Z0-9]*)\s*$/;

/** "MV KOTA HARUM V.0412W" → name "KOTA HARUM", voyage "0412W". */
export function splitVessel(text: string): { name: string; voyage?: string } {
  let upper = text.toUpperCase().replace(/\s+/g, " ").trim().replace(VESSEL_PREFIX, "");
  const voyage = VOYAGE_SUFFIX.exec(upper);
  if (voyage) upper = upper.slice(0, voyage.index);
  const name = upper.replace(/[^A-Z0-9 ]/g, " ").replace(/\s+/g, " ").trim();
  return voyage ? { name, voyage: voyage[1] } : { name };
}

const VESSEL_SIMILARITY = 0.85;

function sameVessel(a: string, b: string): boolean {
  return a === b || similarity(a, b) >= VESSEL_SIMILARITY;
}

/**
 * Container and seal numbers by their OCR-folded key (a scanned MSKU4O21730 is
 * MSKU4021730), each with the number as printed for messages.
 */
function compactSet(values: string[]): Map<string, string> {
  return new Map(values.map((v) => [referenceKey(v), compactRef(v)]));
}

function checkContainers(p: Presentation, bls: Doc[]): Finding[] {
  const reference = compactSet(bls.flatMap((d) => readList(d.fields, "container_numbers") ?? []));
  if (!reference.size) return [];
  const witness = bls.find((d) => readList(d.fields, "container_numbers"))!;
  return p.presented.filter((d) => d.typeId !== "bill_of_lading").flatMap((doc) => {
    const own = compactSet(readList(doc.fields, "container_numbers") ?? []);
    if (!own.size) return [];
    const extra = [...own].filter(([c]) => !reference.has(c)).map(([, shown]) => shown);
    const missing = [...reference].filter(([c]) => !own.has(c)).map(([, shown]) => shown);
    if (!extra.length && !missing.length) return [];
    const base = { documents: [doc, witness], fields: ["container_numbers"], expected: [...reference.values()].join(", "), found: [...own.values()].join(", ") };
    if (extra.length) {
      return [report(CONTAINERS, { ...base, message: `${doc.type} shows container(s) ${extra.join(", ")} that the bill of lading does not.` })];
    }
    return [report(CONTAINERS, {
      ...base, severity: "warning",
      message: `${doc.type} omits container(s) ${missing.join(", ")} shown on the bill of lading; check it covers the whole shipment.`,
    })];
  });
}

/** Originals and copies of one B/L: sets and names must be the same on each. */
function checkCopies(bls: Doc[]): Finding[] {
  return groupCopies(bls, "bl_number").flatMap(([first, ...copies]) =>
    copies.flatMap((copy) => {
      const findings: Finding[] = [];
      for (const [rule, key] of [[CONTAINERS, "container_numbers"], [SEALS, "seal_numbers"]] as const) {
        const a = compactSet(readList(first!.fields, key) ?? []);
        const b = compactSet(readList(copy.fields, key) ?? []);
        if (!a.size || !b.size || (a.size === b.size && [...a.keys()].every((x) => b.has(x)))) continue;
        findings.push(report(rule, {
          documents: [copy, first!], fields: [key], expected: [...a.values()].join(", "), found: [...b.values()].join(", "),
          message: `This copy of bill of lading ${readText(first!.fields, "bl_number")} shows ${key === "seal_numbers" ? "seal" : "container"} numbers other than the original's.`,
        }));
      }
      return findings;
    }),
  );
}

/** Captions extraction sometimes returns in place of a vessel's name. */
const NOT_A_VESSEL = /^(?:ON\s+OR\s+ABOUT|VESSEL|VOYAGE|VESSEL\s*\/\s*VOYAGE|TBA|TBN|N\/?A|NIL|BY\s+SEA)$/i;

function vesselOf(doc: Doc): { doc: Doc; name: string; voyage?: string } | undefined {
  const vessel = readText(doc.fields, "vessel");
  if (!vessel || NOT_A_VESSEL.test(vessel) || !/[A-Za-z]{2}/.test(vessel)) return undefined;
  const split = splitVessel(vessel);
  const voyage = readText(doc.fields, "voyage") ?? split.voyage;
  return voyage ? { doc, name: split.name, voyage } : { doc, name: split.name };
}

function label(v: { name: string; voyage?: string }): string {
  return [v.name, v.voyage].filter(Boolean).join(" ");
}

/**
 * A vessel against B/Ls none of which the reader found a vessel on: each B/L's
 * own text is searched for the name (never the other documents' vessel put in
 * its place). Without text on any, nothing can be said.
 */
function checkVesselInText(doc: Doc, own: { name: string; voyage?: string }, against: readonly Doc[]): Finding[] {
  const shown = against.map((bl) => textShowsName(bl, own.name));
  if (shown.includes(true) || shown.every((s) => s === undefined)) return [];
  const witness = against[shown.indexOf(false)]!;
  const finding = report(VESSEL, {
    documents: [doc, witness], fields: ["vessel"], found: label(own),
    message: `${doc.type} names the vessel ${label(own)}, which the bill of lading does not show.`,
  });
  const unread = against.filter((_, i) => shown[i] === undefined).map((bl) => `the text of the ${bl.type} on page ${bl.pages[0]} could not be searched`);
  const ocr = against.filter((bl, i) => shown[i] === false && bl.textFromOcr).map((bl) => `the ${bl.type} on page ${bl.pages[0]} was read by OCR, which may have garbled the name`);
  return [withDoubt(finding, [...unread, ...ocr])];
}

/** Each document against the B/L(s); a copy of a B/L against its original. */
function checkVessel(p: Presentation, bls: Doc[]): Finding[] {
  const copies = groupCopies(bls, "bl_number").flatMap(([first, ...rest]) => rest.map((copy) => [copy, [first!]] as const));
  const others = p.presented.filter((d) => d.typeId !== "bill_of_lading").map((doc) => [doc, bls] as const);
  return [...copies, ...others].flatMap(([doc, against]) => {
    const own = vesselOf(doc);
    if (!own) return [];
    const reference = against.map(vesselOf).filter((v) => v !== undefined);
    if (!reference.length) return checkVesselInText(doc, own, against);
    const match = reference.find((r) => sameVessel(r.name, own.name));
    const shown = reference.map(label).join(", ");
    if (!match) {
      const finding = report(VESSEL, {
        documents: [doc, reference[0]!.doc], fields: ["vessel"], expected: shown, found: label(own),
        message: `${doc.type} names the vessel ${label(own)}, conflicting with ${shown} on the bill of lading.`,
      });
      // The B/L's text names this vessel too: its vessel box may have been read from the wrong box.
      const alsoShown = against.filter((bl) => textShowsName(bl, own.name)).map((bl) => `the ${bl.type} on page ${bl.pages[0]} also shows ${own.name}`);
      return [withDoubt(finding, alsoShown)];
    }
    if (own.voyage && match.voyage && referenceKey(own.voyage) !== referenceKey(match.voyage)) {
      return [report(VESSEL, {
        documents: [doc, match.doc], fields: ["vessel", "voyage"], expected: match.voyage, found: own.voyage,
        message: `${doc.type} shows voyage ${own.voyage}, conflicting with voyage ${match.voyage} on the bill of lading.`,
      })];
    }
    return [];
  });
}

function checkPorts(p: Presentation, bls: Doc[]): Finding[] {
  return (["port_of_loading", "port_of_discharge"] as const).flatMap((key) => {
    const reference = bls.flatMap((d) => (readText(d.fields, key) ? [{ doc: d, port: readText(d.fields, key)! }] : []));
    if (!reference.length) return [];
    return p.presented.filter((d) => d.typeId !== "bill_of_lading").flatMap((doc) => {
      const port = readText(doc.fields, key);
      if (!port) return [];
      const verdicts = reference.map((r) => comparePorts(r.port, port));
      if (!verdicts.every((v) => v === "different")) return [];
      const name = key === "port_of_loading" ? "port of loading" : "port of discharge";
      return [report(PORTS, {
        documents: [doc, reference[0]!.doc], fields: [key], expected: reference.map((r) => r.port).join(", "), found: port,
        message: `${doc.type} shows ${name} ${port}, conflicting with ${reference[0]!.port} on the bill of lading.`,
      })];
    });
  });
}

export const TRANSPORT_RULES = [CONTAINERS, SEALS, VESSEL, PORTS];

export function checkTransport(p: Presentation): Finding[] {
  const bls = docsOfType(p, "bill_of_lading");
  if (!bls.length) return [];
  return [...checkContainers(p, bls), ...checkCopies(bls), ...checkVessel(p, bls), ...checkPorts(p, bls)];
}
