import { describe, expect, it } from "vitest";
import { expectedOf, mapLabelFields } from "@/bench/corpus";

describe("corpus labels for the benchmark", () => {
  it("maps normalised label fields onto schema keys and drops the rest", () => {
    const mapped = mapLabelFields("commercial_invoice", {
      invoice_number: "INV-1",
      issue_date: { text: "10/06/2026", iso: "2026-06-10" },
      amount: { text: "USD 1,000.00", value: 1000 },
      gross_weight: { text: "12.5 MT", value: 12.5, unit: "MT" },
      seller: "SOME SELLER\nSOME STREET",
      buyer: "A BUYER",
      tolerance: null,
    });
    expect(mapped).toEqual({ invoice_number: "INV-1", invoice_date: "2026-06-10", total_amount: 1000, gross_weight_kg: 12500 });
  });

  it("names a credit's dates and amount by the credit's keys", () => {
    expect(mapLabelFields("letter_of_credit", { issue_date: { iso: "2021-04-29" }, amount: { value: 60465 }, lc_number: "LC-9" }))
      .toEqual({ date_of_issue: "2021-04-29", amount: 60465, lc_number: "LC-9" });
  });

  it("builds the expected splits and gives the fields to the one split of the file's type", () => {
    const expected = expectedOf({
      file: "letter_of_credit__example__1.pdf",
      format: "pdf",
      pages_types: [{ pages: [1, 2], document_type: "letter_of_credit" }, { pages: [3], document_type: "other" }],
      fields: { lc_number: "LC-1" },
    });
    expect(expected).toEqual([
      { split: { document_type: "Letter of Credit", pages: [1, 2] }, extracted: { lc_number: "LC-1" } },
      { split: { document_type: "Other", pages: [3] }, extracted: {} },
    ]);
  });

  it("leaves fields out when the file holds several documents of its type", () => {
    const expected = expectedOf({
      file: "bill_of_lading__example__1.pdf",
      format: "pdf",
      pages_types: [{ pages: [1], document_type: "bill_of_lading" }, { pages: [2], document_type: "bill_of_lading" }],
      fields: { bl_number: "B1" },
    });
    expect(expected.map((s) => s.extracted)).toEqual([{}, {}]);
  });
});
