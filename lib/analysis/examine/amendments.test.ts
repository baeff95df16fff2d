import { describe, expect, it } from "vitest";
import { amendment, withShipmentPeriod } from "@/test/fixtures/examine/amended";
import { buildCleanPresentation, PRESENTATION_DATE, presentationOf, withFields } from "@/test/fixtures/examine/clean-presentation";
import { examinePresentation } from "./examine";
import { readSwiftTags } from "./swift-text";
import type { ExaminedDocument } from "./types";

function examine(documents: ExaminedDocument[], presentationDate = PRESENTATION_DATE) {
  return examinePresentation({ documents, presentationDate }).findings;
}

function creditOf(documents: ExaminedDocument[]) {
  return presentationOf(documents).credit!;
}

describe("readSwiftTags: raw messages and bank printouts", () => {
  it("reads raw tags with continuation lines and printout titles with the value below", () => {
    const raw = readSwiftTags(":20:ILC1\n:46B:/ADD/+COPY OF\nINSURANCE POLICY\n:71N:BENE");
    expect(raw.find((t) => t.tag === "46B")?.lines).toEqual(["/ADD/+COPY OF", "INSURANCE POLICY"]);
    const printout = readSwiftTags("32B: Increase of Documentary Credit Amount\n   Currency : USD  Amount : 10,000.00\n31E: New Date of Expiry\n  260531");
    expect(printout.map((t) => [t.tag, t.lines])).toEqual([["32B", ["Currency : USD  Amount : 10,000.00"]], ["31E", ["260531"]]]);
    const sameRow = readSwiftTags("31E: New Date of Expiry   260531\n44D: Shipment Period: SECOND HALF OF MAY 2026");
    expect(sameRow.map((t) => [t.tag, t.lines])).toEqual([["31E", ["260531"]], ["44D", ["SECOND HALF OF MAY 2026"]]]);
  });
});

describe("the credit as amended by MT707s presented with it", () => {
  it("reads a printout's amounts: 'Currency : USD Amount : 10,000.00'", () => {
    const printout = { ...amendment(""), text: "MT707 AMENDMENT TO A DOCUMENTARY CREDIT\n26E: Number of Amendment\n  02\n32B: Increase of Documentary Credit Amount\n  Currency : USD  Amount : 10,000.00" };
    expect(creditOf([...buildCleanPresentation(), printout]).fields.amount).toBe(60000);
  });

  it("amount: :32B: increases, :33B: decreases, :34B: states the new amount; the extracted increase is not the amount", () => {
    expect(creditOf([...buildCleanPresentation(), amendment(":32B:USD5000,00")]).fields.amount).toBe(55000);
    expect(creditOf([...buildCleanPresentation(), amendment(":33B:USD5000,00")]).fields.amount).toBe(45000);
    expect(creditOf([...buildCleanPresentation(), amendment(":34B:USD61000,00")]).fields.amount).toBe(61000);
    const findings = examine([...buildCleanPresentation(), amendment(":33B:USD5000,00", { id: "amd1.pdf#1" })]);
    const amount = findings.find((f) => f.rule === "invoice.amount_within_credit");
    expect(amount?.message).toContain("(as amended by amendment no. 1 of 2026-03-25 (amd1.pdf#1))");
    expect(amount?.documents.map((d) => d.id)).toContain("amd1.pdf#1");
  });

  it("an amount change in another currency is not applied, and says so", () => {
    const docs = [...buildCleanPresentation(), amendment(":32B:EUR5000,00", { id: "amd.pdf#1" })];
    expect(creditOf(docs).fields.amount).toBe(50000);
    const note = examine(docs).find((f) => f.rule === "credit.amended");
    expect(note?.message).toMatch(/not applied: amount change in EUR on a credit in USD/);
  });

  it("tolerance: :39A: replaces the credit's", () => {
    const docs = [...withFields(buildCleanPresentation(), "commercial_invoice", { total_amount: 51000 }), amendment(":39A:00/00")];
    expect(examine(docs).map((f) => f.rule)).toContain("invoice.amount_within_credit");
  });

  it("expiry: :31E: (and :31D: since 2018) is the new expiry", () => {
    expect(creditOf([...buildCleanPresentation(), amendment(":31E:260418")]).fields.expiry_date).toBe("2026-04-18");
    const credit = creditOf([...buildCleanPresentation(), amendment(":31D:260610 BANGKOK")]);
    expect([credit.fields.expiry_date, credit.fields.expiry_place]).toEqual(["2026-06-10", "BANGKOK"]);
    const expiry = examine([...buildCleanPresentation(), amendment(":31E:260418")]).find((f) => f.rule === "presentation.expiry");
    expect(expiry?.expected).toMatch(/^on or before 2026-04-18 \(as amended by amendment no\. 1/);
  });

  it("shipment: :44C: and :44D: replace each other; the latest amendment by number wins", () => {
    const period = creditOf([...buildCleanPresentation(), amendment(":44D:APRIL 2026")]);
    expect(period.fields.latest_shipment_date).toBeUndefined();
    expect(period.shipmentPeriod?.text).toBe("APRIL 2026");
    const date = creditOf([...withShipmentPeriod(buildCleanPresentation(), "MARCH 2026"), amendment(":44C:260430")]);
    expect([date.fields.latest_shipment_date, date.shipmentPeriod]).toEqual(["2026-04-30", undefined]);
    const ordered = creditOf([...buildCleanPresentation(), amendment(":44C:260420", { number: 2 }), amendment(":44C:260410", { number: 1 })]);
    expect(ordered.fields.latest_shipment_date).toBe("2026-04-20");
    const finding = examine([...buildCleanPresentation(), amendment(":44D:MIDDLE OF APRIL 2026")]).find((f) => f.rule === "shipment.period");
    expect(finding?.message).toMatch(/before the shipment period "MIDDLE OF APRIL 2026" \(from 2026-04-11 to 2026-04-20\) \(as amended by amendment no\. 1/);
  });

  it("ports: :44E: and :44F: replace the credit's", () => {
    const credit = creditOf([...buildCleanPresentation(), amendment(":44E:LAEM CHABANG, THAILAND\n:44F:DAMMAM, SAUDI ARABIA")]);
    expect([credit.fields.port_of_loading, credit.fields.port_of_discharge]).toEqual(["LAEM CHABANG, THAILAND", "DAMMAM, SAUDI ARABIA"]);
    const rules = examine([...buildCleanPresentation(), amendment(":44F:DAMMAM, SAUDI ARABIA")]).filter((f) => f.severity === "discrepancy");
    expect(rules.map((f) => f.rule)).toEqual(["shipment.port_of_discharge"]);
    expect(rules[0]?.message).toMatch(/as amended by amendment no\. 1/);
  });

  it("documents: :46B: ADD, DELETE and REPALL change the lines of :46A:", () => {
    const base = buildCleanPresentation();
    const added = creditOf([...base, amendment(":46B:/ADD/+CERTIFICATE OF ANALYSIS ISSUED BY SGS.")]).fields.documents_required as string[];
    expect(added).toHaveLength(11);
    expect(added.at(-1)).toBe("CERTIFICATE OF ANALYSIS ISSUED BY SGS.");
    const deleted = creditOf([...base, amendment(":46B:/DELETE/+5. CERTIFICATE OF WEIGHT ISSUED BY AN INDEPENDENT SURVEYOR.")]).fields.documents_required as string[];
    expect(deleted).toHaveLength(9);
    expect(deleted.some((l) => /CERTIFICATE OF WEIGHT/.test(l))).toBe(false);
    const retyped = creditOf([...base, amendment(":46B:/DELETE/+CERTIFICATE OF WEIGHT ISSUED BY INDEPENDENT SURVEYORS")]).fields.documents_required as string[];
    expect(retyped.some((l) => /CERTIFICATE OF WEIGHT/.test(l))).toBe(false);
    const vague = presentationOf([...base, amendment(":46B:/DELETE/+CERTIFICATE")]).credit!;
    expect(vague.fields.documents_required).toHaveLength(10);
    expect(vague.amendments[0]?.unapplied).toEqual([':46B: DELETE of "CERTIFICATE" matches no line of the credit']);
    const replaced = creditOf([...base, amendment(":46B:/REPALL/+COMMERCIAL INVOICE\n+PACKING LIST")]).fields.documents_required;
    expect(replaced).toEqual(["COMMERCIAL INVOICE", "PACKING LIST"]);
    const both = creditOf([...base, amendment(":46B:/DELETE/+PACKING LIST IN ONE ORIGINAL AND TWO COPIES.\n/ADD/+PACKING LIST IN TWO ORIGINALS.")]).fields.documents_required as string[];
    expect(both.filter((l) => /PACKING LIST/.test(l))).toEqual(["PACKING LIST IN TWO ORIGINALS."]);
  });

  it("documents: a missing document an amendment added names the amendment; a DELETE that matches nothing is said", () => {
    const docs = [...buildCleanPresentation(), amendment(":46B:/ADD/+HEALTH CERTIFICATE ISSUED BY THE MINISTRY OF HEALTH.", { id: "amd.pdf#1" })];
    const missing = examine(docs).find((f) => f.rule === "documents.required_present");
    expect(missing?.message).toMatch(/\(a requirement added by amendment no\. 1 of 2026-03-25 \(amd\.pdf#1\)\)\.$/);
    const note = examine([...buildCleanPresentation(), amendment(":46B:/DELETE/+SURVEY REPORT OF THE VESSEL HOLDS")]).find((f) => f.rule === "credit.amended");
    expect(note?.message).toMatch(/:46B: DELETE of "SURVEY REPORT OF THE VESSEL HOLDS" matches no line of the credit/);
  });

  it("conditions: :47B: ADD and DELETE change :47A:, and a finding from an added condition names its amendment", () => {
    const deleted = creditOf([...buildCleanPresentation(), amendment(":47B:/DELETE/+ALL DOCUMENTS MUST BE ISSUED IN ENGLISH.")]);
    expect(deleted.fields.additional_conditions).toEqual(["1. THE CREDIT NUMBER MUST BE QUOTED ON ALL DOCUMENTS."]);
    const docs = [
      ...withFields(buildCleanPresentation(), "bill_of_lading", { shipper: "SIAM LOGISTICS AND FORWARDING CO., LTD." }),
      amendment(":47B:/ADD/+BILL OF LADING SHOWING SHIPPER OTHER THAN THE BENEFICIARY IS NOT ACCEPTABLE."),
    ];
    expect(examine(docs).find((f) => f.rule === "conditions.shipper_is_beneficiary")?.message).toMatch(/a requirement added by amendment no\. 1/);
  });

  it("goods: :45B: ADD appends to the description, REPALL replaces it", () => {
    expect(creditOf([...buildCleanPresentation(), amendment(":45B:/REPALL/100 MT THAI JASMINE RICE")]).fields.description_of_goods).toBe("100 MT THAI JASMINE RICE");
    expect(String(creditOf([...buildCleanPresentation(), amendment(":45B:/ADD/SHIPPING MARKS AS PER CONTRACT")]).fields.description_of_goods)).toMatch(/INCOTERMS 2020 SHIPPING MARKS AS PER CONTRACT$/);
  });

  it("says which amendments were applied and what they changed", () => {
    const note = examine([...buildCleanPresentation(), amendment(":31E:260531\n:44C:260425", { id: "amd.pdf#1" })]).find((f) => f.rule === "credit.amended");
    expect(note).toMatchObject({ severity: "info", documents: [{ id: "amd.pdf#1" }] });
    expect(note?.message).toBe("The documents were examined against the credit as amended: amendment no. 1 of 2026-03-25 (amd.pdf#1) applied (expiry date, latest date of shipment).");
  });

  it("applies the MT707s that share one split with the MT700, on the MT700's extracted terms", () => {
    const [credit, ...rest] = buildCleanPresentation();
    const first = amendment(":32B:USD5000,00", { number: 1 }).text!;
    const second = amendment(":44C:260430", { number: 2, date: "260401" }).text!;
    const combined = { ...credit!, text: `${credit!.text}\n:45A:RICE\n${first}\n${second}` };
    const p = presentationOf([combined, ...rest]);
    expect(p.credit?.fields.amount).toBe(55000);
    expect(p.credit?.fields.latest_shipment_date).toBe("2026-04-30");
    expect(p.credit?.amendments.map((a) => a.number)).toEqual([1, 2]);
    const result = examinePresentation({ documents: [combined, ...rest], presentationDate: PRESENTATION_DATE });
    expect(result.matrix.columns.find((c) => c.id === combined.id)?.role).toBe("credit");
  });

  it("a stored MT707 (no text, dated with the credit's :31C:) is still an amendment, by its coded lines or missing applicant", () => {
    const stored = (extracted: Record<string, unknown>): ExaminedDocument => ({
      id: "ana_y#1",
      result: { split: { document_type: "Letter of Credit", pages: [1] }, extracted: { lc_number: "ILC2026-00417", date_of_issue: "2026-03-02", ...extracted } },
    });
    const coded = presentationOf([...buildCleanPresentation(), stored({ applicant: "GULF STAR", amount: 5000, documents_required: ["/ADD/+COPY OF INSURANCE POLICY"] })]).credit!;
    expect(coded.fields.amount).toBe(50000);
    expect(coded.fields.documents_required).toHaveLength(11);
    // The extraction drops a line's opening slash: "ADD/+…" is still a code.
    const slashless = presentationOf([...buildCleanPresentation(), stored({ applicant: "GULF STAR", documents_required: ["ADD/+HEALTH CERTIFICATE"] })]).credit!;
    expect((slashless.fields.documents_required as string[]).at(-1)).toBe("HEALTH CERTIFICATE");
    const unnamed = presentationOf([...buildCleanPresentation(), stored({ amount: 5000, expiry_date: "2026-06-30" })]).credit!;
    expect([unnamed.fields.amount, unnamed.fields.expiry_date, unnamed.amendments.length]).toEqual([50000, "2026-06-30", 1]);
  });

  it("an amendment without its text (a stored analysis) applies its dated terms but not an amount it cannot read", () => {
    const stored: ExaminedDocument = {
      id: "ana_x#1",
      result: { split: { document_type: "Letter of Credit", pages: [1] }, extracted: { lc_number: "ILC2026-00417", date_of_issue: "2026-03-25", amount: 5000, latest_shipment_date: "2026-04-30" } },
    };
    const credit = creditOf([...buildCleanPresentation(), stored]);
    expect([credit.fields.amount, credit.fields.latest_shipment_date]).toEqual([50000, "2026-04-30"]);
    expect(examine([...buildCleanPresentation(), stored]).find((f) => f.rule === "credit.amended")?.message).toMatch(/its amount is not applied/);
  });
});

describe("the matrix beside an amended credit", () => {
  it("shows in an amendment's column the terms it changed, never its extracted increase, and no term as missing", () => {
    const docs = [...buildCleanPresentation(), amendment(":32B:USD5000,00\n:31E:260531", { id: "amd.pdf#1" })];
    const { matrix } = examinePresentation({ documents: docs, presentationDate: PRESENTATION_DATE });
    const column = matrix.columns.findIndex((c) => c.id === "amd.pdf#1");
    expect(matrix.columns[column]?.role).toBe("amendment");
    const cell = (key: string) => matrix.rows.find((r) => r.key === key)?.cells[column];
    expect(cell("amount")).toMatchObject({ value: 55000, state: "present" });
    expect(cell("expiry")).toMatchObject({ value: "2026-05-31", state: "present" });
    expect(matrix.rows.flatMap((r) => r.cells[column]?.state === "missing" ? [r.key] : [])).toEqual([]);
  });
});
