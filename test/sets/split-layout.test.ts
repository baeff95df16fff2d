import { describe, expect, it } from "vitest";
import { ApiError } from "@/lib/errors";
import { applyCorrection, extractLayout, layoutOf, type LayoutSplit } from "@/lib/sets/split-layout";
import { makePdf } from "../support/api-fixtures";
import { ingestDocument } from "@/lib/analysis";

const ORIGINAL: LayoutSplit[] = [
  { document_type: "commercial_invoice", pages: [1, 2] },
  { document_type: "packing_list", pages: [3, 4, 5] },
  { document_type: "bill_of_lading", pages: [6] },
];

function refusal(run: () => unknown): string {
  try {
    run();
  } catch (error) {
    expect(error).toBeInstanceOf(ApiError);
    return (error as ApiError).message;
  }
  throw new Error("expected a refusal");
}

describe("applyCorrection", () => {
  it("changes one split's type and nothing else", () => {
    const next = applyCorrection(ORIGINAL, { action: "retype", splitIndex: 1, documentType: "certificate_of_weight" }, ORIGINAL);
    expect(next.map((s) => s.document_type)).toEqual(["commercial_invoice", "certificate_of_weight", "bill_of_lading"]);
    expect(next.map((s) => s.pages)).toEqual(ORIGINAL.map((s) => s.pages));
    expect(ORIGINAL[1]!.document_type).toBe("packing_list");
  });

  it("starts a new document at a page inside a split, of the same type", () => {
    const next = applyCorrection(ORIGINAL, { action: "split", page: 4 }, ORIGINAL);
    expect(next).toEqual([
      ORIGINAL[0],
      { document_type: "packing_list", pages: [3] },
      { document_type: "packing_list", pages: [4, 5] },
      ORIGINAL[2],
    ]);
  });

  it("merges a split into the previous one, keeping the previous type", () => {
    const next = applyCorrection(ORIGINAL, { action: "merge", splitIndex: 2 }, ORIGINAL);
    expect(next).toEqual([ORIGINAL[0], { document_type: "packing_list", pages: [3, 4, 5, 6] }]);
  });

  it("returns to the engine's splits on reset", () => {
    const edited = applyCorrection(ORIGINAL, { action: "merge", splitIndex: 1 }, ORIGINAL);
    expect(applyCorrection(edited, { action: "reset" }, ORIGINAL)).toEqual(ORIGINAL);
  });

  it("refuses corrections that mean nothing, saying why", () => {
    expect(refusal(() => applyCorrection(ORIGINAL, { action: "split", page: 3 }, ORIGINAL))).toBe("Page 3 already starts a document.");
    expect(refusal(() => applyCorrection(ORIGINAL, { action: "split", page: 9 }, ORIGINAL))).toBe("The file has no page 9.");
    expect(refusal(() => applyCorrection(ORIGINAL, { action: "merge", splitIndex: 0 }, ORIGINAL))).toBe(
      "The first split has no previous split to merge with.",
    );
    expect(refusal(() => applyCorrection(ORIGINAL, { action: "merge", splitIndex: 3 }, ORIGINAL))).toBe("There is no split 4; the file has 3.");
    expect(refusal(() => applyCorrection(ORIGINAL, { action: "retype", splitIndex: 0, documentType: "commercial_invoice" }, ORIGINAL))).toBe(
      "Split 1 is already a Commercial Invoice.",
    );
  });
});

describe("extractLayout", () => {
  it("extracts each split for its corrected type from the real pages, with evidence", async () => {
    const pages = await ingestDocument(
      await makePdf([
        ["COMMERCIAL INVOICE", "Invoice No.: INV-7731", "Date: 14 March 2024", "Total: USD 78,720.00"],
        ["PACKING LIST", "Total gross weight: 19,520 kg"],
      ]),
    );
    const layout = layoutOf([
      { split: { document_type: "Commercial Invoice", pages: [1] }, extracted: {} },
      { split: { document_type: "Other", pages: [2] }, extracted: {} },
    ]);
    const [invoice, other] = extractLayout(layout, pages);
    expect(invoice!.split).toEqual({ document_type: "Commercial Invoice", pages: [1] });
    expect(invoice!.extracted.invoice_number).toBe("INV-7731");
    expect(invoice!.evidence?.invoice_number?.page).toBe(1);
    expect(other!.extracted).toEqual({});
    const [, packing] = extractLayout(applyCorrection(layout, { action: "retype", splitIndex: 1, documentType: "packing_list" }, layout), pages);
    expect(packing!.extracted.gross_weight_kg).toBe(19520);
  });
});
