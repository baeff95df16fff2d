import { describe, expect, it } from "vitest";
import { familiesOf, generateSameLayoutDocument } from "@/test/fixtures/generator/families/index";
import { ingestDocument } from "../ingest";
import { analyzePages } from "../pipeline";
import { DOCUMENT_TYPES, type FieldKind } from "../schema";
import { layoutPage } from "../extract/test-pages";
import type { LayoutHint } from "../types";
import { issuerKeyOf, layoutFingerprint, layoutSimilarity } from "./fingerprint";
import { locateValue, readAtPlace } from "./place";
import { LAYOUT_MATCH_THRESHOLD } from "./apply";

const family = (name: string) => familiesOf("development").find((f) => f.name === name)!;
const KINDS = DOCUMENT_TYPES.commercial_invoice.fields as Record<string, FieldKind>;

async function readInvoice(familyName: string, layoutSeed: number, valuesSeed: number) {
  const fixture = await generateSameLayoutDocument("commercial_invoice", layoutSeed, valuesSeed, family(familyName));
  const pages = await ingestDocument(fixture.pdf);
  return { pages, expected: fixture.expected[0]!.extracted, read: (hints: LayoutHint[] = []) => analyzePages(pages, { evidence: true, layoutHints: hints })[0]! };
}

describe("teaching a layout once", () => {
  it("reads a field taught on one invoice right on the next invoice of the template, and leaves other templates alone", async () => {
    const taught = await readInvoice("label-above", 91_037, 91_037);
    const before = taught.read();
    const wrong = Object.keys(taught.expected).filter((f) => JSON.stringify(taught.expected[f]) !== JSON.stringify(before.extracted[f]) && KINDS[f] !== undefined);
    expect(wrong.length).toBeGreaterThan(0);
    const fields: LayoutHint["fields"] = {};
    for (const field of wrong) {
      const place = locateValue(taught.pages, field, KINDS[field]!, taught.expected[field]);
      if (place) fields[field] = { ...place, source: "invoice-a.pdf p. 1 in set A" };
    }
    const hint: LayoutHint = { id: "lay_1", documentType: "commercial_invoice", issuer: issuerKeyOf({ ...before.extracted, ...taught.expected }), fingerprint: layoutFingerprint(taught.pages), fields };

    const next = await readInvoice("label-above", 91_037, 91_537);
    const plain = next.read();
    const withHint = next.read([hint]);
    const differing = Object.keys(fields).filter((f) => JSON.stringify(next.expected[f]) !== JSON.stringify(taught.expected[f]));
    expect(differing.length).toBeGreaterThan(0);
    for (const field of differing) {
      expect(plain.extracted[field], field).not.toEqual(next.expected[field]);
      expect(withHint.extracted[field], field).toEqual(next.expected[field]);
      expect(withHint.evidence![field]!.taught).toEqual({ layout: "lay_1", source: "invoice-a.pdf p. 1 in set A" });
    }

    // Another template of the same issuer reads exactly as without the hint.
    const other = await readInvoice("colon-tab", 98_015, 91_515);
    expect(other.read([hint])).toEqual(other.read());
    expect(layoutSimilarity(layoutFingerprint(next.pages), hint.fingerprint)).toBeGreaterThanOrEqual(LAYOUT_MATCH_THRESHOLD);
    expect(layoutSimilarity(layoutFingerprint(other.pages), hint.fingerprint)).toBeLessThan(LAYOUT_MATCH_THRESHOLD);
    // Another issuer on the same template does not take it either.
    expect(next.read([{ ...hint, issuer: "SOMEONE ELSE" }])).toEqual(plain);
  });

  it("moves a taught place with its label when the rows above it run longer", () => {
    const taughtPage = layoutPage(["COMMERCIAL INVOICE", "Buyer: ACME", "Vessel: MV AURORA", "Gross weight: 49,080.000 KGS"].join("\n"));
    const place = locateValue([taughtPage], "gross_weight_kg", "number", 49080)!;
    expect(place.anchor?.text).toBe("gross weight:");
    const nextPage = layoutPage(["COMMERCIAL INVOICE", "Buyer: ACME", "PO BOX 12", "Vessel: MV CORAL", "Gross weight: 21,303.500 KGS"].join("\n"));
    expect(readAtPlace([nextPage], place, "gross_weight_kg", "number")?.value).toBe(21303.5);
  });
});
