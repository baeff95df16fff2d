import { describe, expect, it } from "vitest";
import { buildCleanPresentation, withFields } from "@/test/fixtures/examine/clean-presentation";
import { examinePresentation } from "./examine";
import { looksLikeCaption } from "./captions";
import { figureDoubt, runOnName, truncatedName } from "./doubt";
import { referenceKey } from "./similarity";
import type { ExaminedDocument } from "./types";

const DATE = "2026-04-20";
const exact = (a: number, b: number) => Math.abs(a - b) < 1e-6;
const rulesOf = (docs: ExaminedDocument[]) =>
  examinePresentation({ documents: docs, presentationDate: DATE }).findings.filter((f) => f.severity !== "info").map((f) => `${f.rule}:${f.severity}`);

function withEvidence(docs: ExaminedDocument[], type: string, key: string, value: unknown, confidence: number, text = String(value)): ExaminedDocument[] {
  return docs.map((d) => d.result.split.document_type !== type ? d : {
    ...d, result: { ...d.result, extracted: { ...d.result.extracted, [key]: value }, evidence: { [key]: { page: 5, bbox: [0, 0, 1, 1], text, confidence } } },
  });
}

describe("references modulo OCR confusions", () => {
  it("folds O/0, I/l/1, S/5, B/8, Z/2, G/6 and J/)", () => {
    expect(referenceKey("BKKJEA26O412")).toBe(referenceKey("BKKJEA260412"));
    expect(referenceKey("SGR-INV-2O26-1l8")).toBe(referenceKey("SGR-INV-2026-118"));
    expect(referenceKey("LC/2026/)K5")).toBe(referenceKey("LC/2026/JKS"));
    expect(referenceKey("BKKJEA260421")).not.toBe(referenceKey("BKKJEA260412"));
  });

  it("raises nothing on a B/L number read with an O for a 0, and still refuses another number", () => {
    expect(rulesOf(withFields(buildCleanPresentation(), "certificate_of_weight", { bl_number: "BKKJEA26O4I2" }))).toEqual([]);
    expect(rulesOf(withFields(buildCleanPresentation(), "certificate_of_weight", { bl_number: "BKKJEA260421" }))).toEqual(["consistency.bl_number:discrepancy"]);
  });
});

describe("figures a misread explains", () => {
  it("recognises the other decimal convention, lost digits and implausible magnitudes, not real differences", () => {
    expect(figureDoubt(104.281, 104281, exact, "gross weight")).toMatch(/decimal mark swapped/);
    expect(figureDoubt(80, 2080, exact, "packages")).toMatch(/some lost/);
    expect(figureDoubt(2000, 40, exact, "packages")).toMatch(/misread/);
    expect(figureDoubt(2100, 2000, exact, "packages")).toBeUndefined();
    expect(figureDoubt(100650, 100400, exact, "gross weight")).toBeUndefined();
  });

  it("warns, naming the doubt, where the number reads as the others' in the other convention", () => {
    const docs = withFields(buildCleanPresentation(), "packing_list", { gross_weight_kg: 100.4 });
    const [finding] = examinePresentation({ documents: docs, presentationDate: DATE }).findings.filter((f) => f.rule === "consistency.gross_weight");
    expect(finding?.severity).toBe("warning");
    expect(finding?.message).toMatch(/thousands separator and decimal mark swapped/);
  });
});

describe("captions read as values", () => {
  it("tells a caption or a title from a name", () => {
    expect(looksLikeCaption("BILL OF LADING")).toBe(true);
    expect(looksLikeCaption("VESSEL / VOYAGE")).toBe(true);
    expect(looksLikeCaption("OCEAN BILL OF LADING NO.")).toBe(true);
    expect(looksLikeCaption("KOTA HARUM")).toBe(false);
    expect(looksLikeCaption("TO ORDER")).toBe(false);
  });

  it("knows every label of the engine's vocabulary, in any inflection, and no name made of other words", () => {
    expect(looksLikeCaption("Discharging Port")).toBe(true);
    expect(looksLikeCaption("LOAD PORT")).toBe(true);
    expect(looksLikeCaption("Cntr Nos.")).toBe(true);
    expect(looksLikeCaption("DATE OF SURVEY")).toBe(true);
    expect(looksLikeCaption("Place of Production")).toBe(true);
    expect(looksLikeCaption("Min. Temperature (C)")).toBe(true);
    expect(looksLikeCaption("Equipment Type")).toBe(true);
    expect(looksLikeCaption("Deliver to")).toBe(true);
    expect(looksLikeCaption("PROFORMA CONTRACT")).toBe(true);
    expect(looksLikeCaption("TO THE ORDER OF NORDIC AMBER BANK AS")).toBe(false);
    expect(looksLikeCaption("OCEAN LANTERN")).toBe(false);
    expect(looksLikeCaption("PORT KLANG")).toBe(false);
  });

  it("sets aside a value the page prints with a label's colon after it", () => {
    expect(rulesOf(withEvidence(buildCleanPresentation(), "Commercial Invoice", "port_of_loading", "Duration (hrs) of Stay", 0.9, "Duration (hrs) of Stay:"))).toEqual([]);
    expect(rulesOf(withEvidence(buildCleanPresentation(), "Commercial Invoice", "port_of_loading", "Duration (hrs) of Stay", 0.9))).toEqual(["consistency.ports:discrepancy"]);
  });

  it("sets a vessel named BILL OF LADING aside with an info note, never a discrepancy", () => {
    const docs = withFields(buildCleanPresentation(), "certificate_of_origin", { vessel: "BILL OF LADING" });
    const findings = examinePresentation({ documents: docs, presentationDate: DATE }).findings;
    expect(findings.filter((f) => f.severity !== "info")).toEqual([]);
    expect(findings.find((f) => f.rule === "reading.caption_as_value")?.message).toMatch(/vessel read as "BILL OF LADING"/);
  });
});

describe("values of the wrong kind or cut short", () => {
  it("sets aside a port of discharge that is a party's name, and warns on a name cut short", () => {
    expect(rulesOf(withFields(buildCleanPresentation(), "packing_list", { port_of_discharge: "GULF STAR FOODSTUFF TRADING L.L.C." }))).toEqual([]);
    expect(rulesOf(withFields(buildCleanPresentation(), "commercial_invoice", { buyer: "GULF STAR" }))).toEqual(["invoice.made_out_to_applicant:warning"]);
    // A legal form alone is the cut-off tail of a name, not a party.
    expect(rulesOf(withFields(buildCleanPresentation(), "certificate_of_origin", { consignee: "LIMITED" }))).toEqual([]);
    expect(rulesOf(withFields(buildCleanPresentation(), "commercial_invoice", { buyer: "DESERT ROSE GENERAL TRADING LLC" }))).toEqual(["invoice.made_out_to_applicant:discrepancy"]);
  });

  it("warns when the document prints every word of the expected name and the name read opens like it (two boxes read as one)", () => {
    const [applicant] = (buildCleanPresentation().find((d) => d.result.split.document_type === "Letter of Credit")!.result.extracted.applicant as string).split("\n");
    const first = applicant!.split(" ")[0];
    const mixed = withFields(buildCleanPresentation(), "commercial_invoice", { buyer: `${first} FORWARDING LLC` });
    expect(rulesOf(mixed.map((d) => d.result.split.document_type !== "Commercial Invoice" ? d : { ...d, text: `${d.text}\n${applicant}` }))).toEqual(["invoice.made_out_to_applicant:warning"]);
    expect(rulesOf(mixed)).toEqual(["invoice.made_out_to_applicant:discrepancy"]);
  });
});

describe("names cut at the start or run on into the next box", () => {
  it("tells a name that lost its first line, or ran on past its end, from another party", () => {
    expect(truncatedName("AMBER BANK AS", "NORDIC AMBER BANK AS")).toBe(true);
    expect(truncatedName("BANK AS", "NORDIC AMBER TRADE BANK AS")).toBe(false);
    expect(runOnName("SUNRISE PROVISIONS SDN KABULI CHICKPEAS", "SUNRISE PROVISIONS SDN BHD")).toBe(true);
    expect(runOnName("SUNRISE PROVISIONS TRADING", "SUNRISE PROVISIONS SDN BHD")).toBe(false);
    expect(rulesOf(withFields(buildCleanPresentation(), "commercial_invoice", { buyer: "DESERT ROSE GENERAL TRADING LLC" }))).toEqual(["invoice.made_out_to_applicant:discrepancy"]);
  });

  it("warns when the document prints every word of the expected name and the name read opens like it (two boxes read as one)", () => {
    const [applicant] = (buildCleanPresentation().find((d) => d.result.split.document_type === "Letter of Credit")!.result.extracted.applicant as string).split("\n");
    const first = applicant!.split(" ")[0];
    const mixed = withFields(buildCleanPresentation(), "commercial_invoice", { buyer: `${first} FORWARDING LLC` });
    expect(rulesOf(mixed.map((d) => d.result.split.document_type !== "Commercial Invoice" ? d : { ...d, text: `${d.text}\n${applicant}` }))).toEqual(["invoice.made_out_to_applicant:warning"]);
    expect(rulesOf(mixed)).toEqual(["invoice.made_out_to_applicant:discrepancy"]);
  });
});

describe("figures the read text contradicts", () => {
  it("warns when the line read also prints the other document's figure, or prints several figures and not this one", () => {
    const clean = buildCleanPresentation();
    expect(rulesOf(withEvidence(clean, "Packing List", "gross_weight_kg", 3750, 0.8, "TOTAL 3,750.000 KGS 100,400.000 KGS"))).toEqual(["consistency.gross_weight:warning"]);
    expect(rulesOf(withEvidence(clean, "Packing List", "gross_weight_kg", 45500, 0.8, "2,150.00 2,150.00 2,500.00 2,150.00"))).toEqual(["consistency.gross_weight:warning"]);
    expect(rulesOf(withEvidence(clean, "Packing List", "gross_weight_kg", 100650, 0.8, "TOTAL 100,650.000 KGS 99,000.000 KGS"))).toEqual(["consistency.gross_weight:discrepancy"]);
    // Printed in pounds: 221,343 LBS is the 100,400 kg the other documents state.
    expect(rulesOf(withEvidence(clean, "Packing List", "gross_weight_kg", 8299.8, 0.8, "18,298 LBS 221,343 LBS"))).toEqual(["consistency.gross_weight:warning"]);
  });
});

describe("lots", () => {
  it("reconciles two lot certificates against the whole", () => {
    const docs = buildCleanPresentation();
    const weight = docs.find((d) => d.result.split.document_type === "Certificate of Weight")!;
    const lot = (n: number): ExaminedDocument => ({
      ...weight, id: `lot${n}`,
      result: { ...weight.result, extracted: { ...weight.result.extracted, certificate_number: `W-${n}`, number_of_packages: 1000, gross_weight_kg: 50200, net_weight_kg: 50000, container_numbers: undefined } },
    });
    expect(rulesOf([...docs.filter((d) => d !== weight), lot(1), lot(2)])).toEqual([]);
  });

  it("tells two lots apart by their own numbers, not by a B/L number or a Ref No. every document of the shipment quotes", () => {
    const docs = buildCleanPresentation();
    const weight = docs.find((d) => d.result.split.document_type === "Certificate of Weight")!;
    const lot = (n: number): ExaminedDocument => ({
      ...weight, id: `lot${n}`,
      result: { ...weight.result, extracted: { ...weight.result.extracted, certificate_number: undefined, reference_number: "EXP/2026/044", number_of_packages: 1000, gross_weight_kg: 50200, net_weight_kg: 50000, container_numbers: undefined } },
    });
    expect(rulesOf([...docs.filter((d) => d !== weight), lot(1), lot(2)])).toEqual([]);
  });

  it("warns on one lot's certificate alone, and refuses a certificate stating more than the whole", () => {
    expect(rulesOf(withFields(buildCleanPresentation(), "certificate_of_origin", { number_of_packages: 1000 }))).toEqual(["consistency.packages:warning"]);
    expect(rulesOf(withFields(buildCleanPresentation(), "certificate_of_origin", { number_of_packages: 4000 }))).toEqual(["consistency.packages:discrepancy"]);
  });
});

describe("low-confidence reads", () => {
  it("turns a conflict resting on an unsure read into a warning that names it, and keeps a sure one a discrepancy", () => {
    const unsure = examinePresentation({ documents: withEvidence(buildCleanPresentation(), "Packing List", "gross_weight_kg", 100650, 0.45), presentationDate: DATE });
    const [warning] = unsure.findings.filter((f) => f.rule === "consistency.gross_weight");
    expect(warning?.severity).toBe("warning");
    expect(warning?.message).toMatch(/gross_weight_kg on the Packing List \(page 5\) was read "100650" with confidence 0\.45/);
    expect(rulesOf(withEvidence(buildCleanPresentation(), "Packing List", "gross_weight_kg", 100650, 0.95))).toEqual(["consistency.gross_weight:discrepancy"]);
  });
});
