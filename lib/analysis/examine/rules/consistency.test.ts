import { describe, expect, it } from "vitest";
import { buildBillOfLading, buildCleanPresentation, presentationOf, withFields } from "@/test/fixtures/examine/clean-presentation";
import { checkFigures } from "./consistency-figures";
import { checkReferencesAndParties } from "./consistency-references";
import { checkTransport, splitVessel } from "./consistency-transport";
import type { ExaminedDocument, Tolerances } from "../types";

const all = (docs = buildCleanPresentation(), tolerances: Partial<Tolerances> = {}) => {
  const p = presentationOf(docs, undefined, tolerances);
  return [...checkFigures(p), ...checkTransport(p), ...checkReferencesAndParties(p)].map((f) => `${f.rule}:${f.severity}`);
};
const change = (type: Parameters<typeof withFields>[1], fields: Record<string, unknown>) => withFields(buildCleanPresentation(), type, fields);

describe("consistency across documents (art. 14(d))", () => {
  it("finds nothing on a clean presentation", () => {
    expect(all()).toEqual([]);
  });

  it("flags a gross weight that conflicts, naming the odd document and the majority value", () => {
    const findings = checkFigures(presentationOf(change("packing_list", { gross_weight_kg: 100650 })));
    expect(findings.map((f) => [f.rule, f.documents[0]?.type, f.expected, f.found])).toEqual([
      ["consistency.gross_weight", "Packing List", "100,400 kg", "100,650 kg"],
    ]);
  });

  it("absorbs rounding within the weight tolerance, and the tolerance is configurable", () => {
    expect(all(change("certificate_of_weight", { gross_weight_kg: 100400.6 }))).toEqual([]);
    expect(all(change("certificate_of_weight", { gross_weight_kg: 100450 }), { weightPct: 0.1 })).toEqual([]);
    expect(all(change("certificate_of_weight", { net_weight_kg: 100003 }))).toEqual(["consistency.net_weight:discrepancy"]);
  });

  it("flags a different number of packages", () => {
    expect(all(change("certificate_of_origin", { number_of_packages: 2100 }))).toEqual(["consistency.packages:discrepancy"]);
  });

  it("flags a container not on the B/L, and warns on one omitted", () => {
    const clean = buildCleanPresentation();
    const containers = clean[2]!.result.extracted.container_numbers as string[];
    expect(all(change("fumigation_certificate", { container_numbers: [...containers.slice(1), "MSKU9999990"] }))).toEqual([
      "consistency.containers:discrepancy",
    ]);
    expect(all(change("packing_list", { container_numbers: containers.slice(1) }))).toEqual(["consistency.containers:warning"]);
    expect(all(change("packing_list", { container_numbers: containers.map((c) => `${c.slice(0, 4)} ${c.slice(4, 10)}-${c.slice(10)}`) }))).toEqual([]);
  });

  it("flags a copy of the B/L whose seals or containers differ from the original", () => {
    const copy = withFields([{ ...buildBillOfLading(), id: "copy" }], "bill_of_lading", { seal_numbers: ["ML-TH 000001"] });
    expect(all([...buildCleanPresentation(), ...copy])).toEqual(["consistency.seals:discrepancy"]);
  });

  it("flags another vessel or voyage, ignoring MV prefixes and voyage suffixes", () => {
    expect(all(change("certificate_of_origin", { vessel: "MV KOTA HAKIM" }))).toEqual(["consistency.vessel:discrepancy"]);
    expect(all(change("packing_list", { vessel: "KOTA HARUM V.0415E" }))).toEqual(["consistency.vessel:discrepancy"]);
    expect(splitVessel("M/V SPECTRUM N VOY. 015S")).toEqual({ name: "SPECTRUM N", voyage: "015S" });
    expect(all(change("commercial_invoice", { vessel: "On or About" }))).toEqual([]);
  });

  it("flags a conflicting port and accepts the same port written differently", () => {
    expect(all(change("commercial_invoice", { port_of_discharge: "DAMMAM, SAUDI ARABIA" }))).toEqual(["consistency.ports:discrepancy"]);
    expect(all(change("commercial_invoice", { port_of_loading: "BANGKOK PORT" }))).toEqual([]);
  });

  it("flags references to another credit, invoice or B/L", () => {
    expect(all(change("bill_of_lading", { lc_number: "ILC2026-00471" }))).toEqual(["consistency.lc_number:discrepancy"]);
    expect(all(change("certificate_of_origin", { invoice_number: "SGR-INV-2026-181" }))).toEqual(["consistency.invoice_number:discrepancy"]);
    expect(all(change("certificate_of_weight", { bl_number: "BKKJEA260421" }))).toEqual(["consistency.bl_number:discrepancy"]);
    expect(all(change("certificate_of_origin", { invoice_number: "SGR INV 2026/118" }))).toEqual([]);
    expect(all(change("commercial_invoice", { lc_number: "AT" }))).toEqual([]);
  });

  it("looks for a reference in the text of a document whose own number was not read, never in the other documents' values", () => {
    // The B/L's number was not extracted, but its text (rendered from the clean fields) still shows it.
    const unread = (docs: ExaminedDocument[]) => docs.map((d) => d.result.split.document_type !== "Bill of Lading" ? d
      : { ...d, result: { ...d.result, extracted: { ...d.result.extracted, bl_number: undefined, vessel: undefined } } });
    expect(all(unread(buildCleanPresentation()))).toEqual([]);
    expect(all(unread(change("certificate_of_weight", { bl_number: "BKKJEA260421" })))).toEqual(["consistency.bl_number:discrepancy"]);
    expect(all(unread(change("certificate_of_origin", { vessel: "NORTHERN JUBILEE" })))).toEqual(["consistency.vessel:discrepancy"]);
    // Without text to search, a number that cannot be compared raises nothing.
    const noText = (docs: ExaminedDocument[]) => unread(docs).map((d) => d.result.split.document_type !== "Bill of Lading" ? d : { ...d, text: undefined });
    expect(all(noText(change("certificate_of_weight", { bl_number: "BKKJEA260421" })))).toEqual([]);
  });

  it("accepts an invoice number that a second invoice, whose number was not read, shows in its text", () => {
    const docs = buildCleanPresentation();
    const invoice = docs.find((d) => d.result.split.document_type === "Commercial Invoice")!;
    const second: ExaminedDocument = { ...invoice, id: "second", text: `${invoice.text}\nINVOICE NO. SGR-INV-2026-377`, result: { ...invoice.result, extracted: { ...invoice.result.extracted, invoice_number: undefined } } };
    expect(all(withFields([...docs, second], "certificate_of_origin", { invoice_number: "SGR-INV-2026-377" }))).toEqual([]);
    expect(all(withFields([...docs, second], "certificate_of_origin", { invoice_number: "SGR-INV-2026-381" }))).toEqual(["consistency.invoice_number:discrepancy"]);
  });

  it("flags a consignee who is nobody the B/L or credit names, accepting the applicant and to-order forms", () => {
    expect(all(change("certificate_of_origin", { consignee: "DESERT ROSE GENERAL TRADING LLC" }))).toEqual(["consistency.consignee:discrepancy"]);
    expect(all(change("certificate_of_origin", { consignee: "TO ORDER" }))).toEqual([]);
    expect(all(change("certificate_of_origin", { consignee: "TO THE ORDER OF EMIRATES NATIONAL BANK P.J.S.C." }))).toEqual([]);
  });

  it("warns on differing shipping marks", () => {
    expect(all(change("phytosanitary_certificate", { distinguishing_marks: "NO MARKS" }))).toEqual(["consistency.marks:warning"]);
  });

  it("stays silent when there is no B/L or no value to compare", () => {
    const noBl = buildCleanPresentation().filter((d) => d.result.split.document_type !== "Bill of Lading");
    expect(all(noBl)).toEqual([]);
    expect(all(change("packing_list", { gross_weight_kg: undefined, vessel: undefined, container_numbers: [] }))).toEqual([]);
  });
});
