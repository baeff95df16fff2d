import { describe, expect, it } from "vitest";
import { readRequirement, readRequirements } from "./requirements";

describe("reading :46A:", () => {
  it("names each item by the first document it mentions", () => {
    expect(readRequirement("CERTIFICATE OF ORIGIN ISSUED BY THE CHAMBER STATING THE INVOICE NUMBER", 1).types).toEqual(["certificate_of_origin"]);
    expect(readRequirement("MANUALLY SIGNED COMMERCIAL INVOICE CERTIFYING ORIGIN OF GOODS", 1).types).toEqual(["commercial_invoice"]);
    expect(readRequirement("MARINE INSURANCE POLICY OR CERTIFICATE FOR FULL VALUE OF THE INVOICE PLUS 10 PERCENT", 1).types).toEqual(["other"]);
    expect(readRequirement("BENEFICIARY CERTIFICATE STATING MANUFACTURING DATE IS WITHIN 3 MONTHS OF BILL OF LADING DATE", 1).types).toEqual(["other"]);
    expect(readRequirement("A CERTIFICATE FROM THE SHIP-OWNER, MASTER OR AGENT OF VESSEL", 1).types).toEqual(["other"]);
    expect(readRequirement("INSPECTION CERTIFICATE ISSUED BY SGS", 1).types).toEqual(["certificate_of_quality", "certificate_of_weight"]);
  });

  it("reads originals, consignee, notify party and freight from the B/L item", () => {
    const r = readRequirement(
      "ORIGINAL CLEAN SHIPPED ON BOARD OCEAN BILLS OF LADING FULL SET 3/3 MADE OUT TO THE ORDER OF ABU DHABI ISLAMIC BANK, U.A.E., NOTIFY PARTY: GREEN OASIS CO. LLC, P.O BOX 1297, AL AIN QUOTING THIS L/C NUMBER, MARKED FREIGHT PREPAID",
      2,
    );
    expect(r).toMatchObject({ types: ["bill_of_lading"], originalsIssued: 3, consignee: "ABU DHABI ISLAMIC BANK, U.A.E.", freight: "prepaid" });
    expect(r.notify).toContain("GREEN OASIS CO. LLC");
    expect(readRequirement("FULL SET OF BILLS OF LADING NOTIFY APPLICANT", 1).notify).toBe("APPLICANT");
  });

  it("splits numbered items that arrive in one string", () => {
    const items = readRequirements({ documents_required: ["1. COMMERCIAL INVOICE IN 3 COPIES 2. PACKING LIST 3. FUMIGATION CERTIFICATE PRIOR TO SHIPMENT"] });
    expect(items.map((r) => [r.index, r.types[0], r.preShipment])).toEqual([
      [1, "commercial_invoice", false],
      [2, "packing_list", false],
      [3, "fumigation_certificate", true],
    ]);
  });
});
