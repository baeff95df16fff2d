import { describe, expect, test } from "vitest";
import { validateExtracted } from "../schema";
import { extractFields } from "./index";
import { layoutPage, layoutPages } from "./test-pages";

const RAW_MT700 = [
  "SWIFT MT700 PRINTOUT                                    Page 1 of 1",
  "Sender   : CRUBSAJEXXX",
  "           CRESCENT UNITED BANK",
  "Receiver : MLCBINBBXXX",
  "           MALABAR COAST BANK LTD",
  "--------------------------- Message Text ------------------------",
  ":27: 1/1",
  ":40A: IRREVOCABLE",
  ":20: CRULC245749104",
  ":31C: 241031",
  ":40E: UCP LATEST VERSION",
  ":31D: 250117INDIA",
  ":50: RED SEA STAPLES COMPANY LIMITED",
  "      AL ANDALUS DISTRICT, PRINCE SULTAN ROAD",
  "      SAUDI ARABIA",
  ":59: /1234567890",
  "      KERALA HILL SPICES PVT LTD",
  "      KOCHI 682030, INDIA",
  ":32B: USD32784,00",
  ":39A: 10/10",
  ":41D: ANY BANK IN INDIA",
  "      BY NEGOTIATION",
  ":43P: NOT ALLOWED",
  ":43T: PERMITTED",
  ":44A: KOCHI CY",
  ":44E: COCHIN",
  ":44F: JEDDAH",
  ":44B: RIYADH",
  ":44C: 241226",
  ":45A: RED SPLIT LENTILS",
  "      QUANTITY: 48.000 MT +/- 10 PCT",
  "      CIF JEDDAH INCOTERMS 2020",
  ":46A: 1. SIGNED COMMERCIAL INVOICE IN 3 ORIGINALS",
  "      INDICATING L/C NO. CRULC245749104",
  "      2. FULL SET OF CLEAN ON BOARD OCEAN BILLS OF LADING",
  ":47A: +ALL DOCUMENTS MUST BE ISSUED IN ENGLISH",
  "      +DISCREPANCY FEE USD 75.00",
  ":48: 21/FROM THE DATE OF SHIPMENT",
  ":49: MAY ADD",
  "------------------------- End of Message --------------------------",
].join("\n");

describe("letter of credit", () => {
  test("raw MT700 tags, multi-line fields and lists", () => {
    const { values, evidence } = extractFields("letter_of_credit", [layoutPage(RAW_MT700)]);
    expect(values).toEqual({
      lc_number: "CRULC245749104",
      form_of_credit: "IRREVOCABLE",
      date_of_issue: "2024-10-31",
      applicable_rules: "UCP LATEST VERSION",
      expiry_date: "2025-01-17",
      expiry_place: "INDIA",
      applicant: "RED SEA STAPLES COMPANY LIMITED",
      applicant_address: "AL ANDALUS DISTRICT, PRINCE SULTAN ROAD SAUDI ARABIA",
      beneficiary: "KERALA HILL SPICES PVT LTD",
      beneficiary_address: "KOCHI 682030, INDIA",
      issuing_bank: "CRESCENT UNITED BANK",
      advising_bank: "MALABAR COAST BANK LTD",
      currency: "USD",
      amount: 32784,
      tolerance_plus_pct: 10,
      tolerance_minus_pct: 10,
      available_with: "ANY BANK IN INDIA",
      available_by: "NEGOTIATION",
      partial_shipments: "not allowed",
      transhipment: "allowed",
      place_of_receipt: "KOCHI CY",
      port_of_loading: "COCHIN",
      port_of_discharge: "JEDDAH",
      place_of_delivery: "RIYADH",
      latest_shipment_date: "2024-12-26",
      description_of_goods: "RED SPLIT LENTILS QUANTITY: 48.000 MT +/- 10 PCT CIF JEDDAH INCOTERMS 2020",
      incoterms: "CIF JEDDAH",
      documents_required: [
        "SIGNED COMMERCIAL INVOICE IN 3 ORIGINALS INDICATING L/C NO. CRULC245749104",
        "FULL SET OF CLEAN ON BOARD OCEAN BILLS OF LADING",
      ],
      additional_conditions: ["ALL DOCUMENTS MUST BE ISSUED IN ENGLISH", "DISCREPANCY FEE USD 75.00"],
      presentation_period_days: 21,
      confirmation_instructions: "MAY ADD",
    });
    expect(validateExtracted("letter_of_credit", values)).toEqual([]);
    expect(evidence.amount?.text).toBe("USD32784,00");
  });

  test("a printout that repeats its sender block at the top of every page still names the issuing bank under the sender's BIC", () => {
    const lines = RAW_MT700.split("\n");
    const header = lines.slice(0, 5);
    const pages = layoutPages(lines.join("\n").replace("Page 1 of 1", "Page 1 of 2"), [...header, ":78: PLEASE REIMBURSE AS INSTRUCTED"].join("\n").replace("Page 1 of 1", "Page 2 of 2"));
    const { values } = extractFields("letter_of_credit", pages);
    expect(values).toMatchObject({ issuing_bank: "CRESCENT UNITED BANK", advising_bank: "MALABAR COAST BANK LTD" });
  });

  test("a wrapped line of a tagged field is never a label: 71D's 'ISSUING BANK ARE FOR BENEFICIARY' names no issuing bank", () => {
    const lines = RAW_MT700.split("\n").filter((l) => !/^Sender|^ {11}CRESCENT/.test(l));
    const at = lines.findIndex((l) => l.startsWith(":48:"));
    lines.splice(at, 0, ":71D: ALL BANKING CHARGES OUTSIDE", "      ISSUING BANK ARE FOR BENEFICIARY", "      QUANTITY: 3 ORIGINALS");
    const { values } = extractFields("letter_of_credit", [layoutPage(lines.join("\n"))]);
    expect(values.issuing_bank).toBeUndefined();
    expect(values).toMatchObject({ advising_bank: "MALABAR COAST BANK LTD", presentation_period_days: 21 });
  });

  test("bank printout: titles after the tags, values indented below, continued on a second page", () => {
    const pages = layoutPages(
      [
        "TFDPrinter-0891",
        "27:  Sequence of Total",
        "     1/1",
        "20: Documentary Credit",
        "Number",
        "     SHAE00441000207",
        "32B: Currency Code, Amount",
        "     Currency    : USD (US DOLLAR)",
        "     Amount      : #93,750.00#",
        "43P: Partial Shipments",
        "     PROHIBITED",
        "44A: Port of Loading",
        "     YOKOHAMA",
        "45A: Description of Goods and/or Services",
        "     PRIMO STAR 500 WP FUNGICIDES.",
      ].join("\n"),
      ["TFDPrinter-0891", "     IN 1KG BAGS", "48: Period for Presentation", "     21 DAYS"].join("\n"),
    );
    const { values } = extractFields("letter_of_credit", pages);
    expect(values).toMatchObject({
      lc_number: "SHAE00441000207",
      currency: "USD",
      amount: 93750,
      partial_shipments: "not allowed",
      port_of_loading: "YOKOHAMA",
      description_of_goods: "PRIMO STAR 500 WP FUNGICIDES. IN 1KG BAGS",
      presentation_period_days: 21,
    });
    expect(values).not.toHaveProperty("place_of_receipt");
  });

  test("letter-form credit without tags, 'about' amount", () => {
    const page = layoutPage(
      [
        "DOC.CREDIT NUMBER: LC2024-BZ-001",
        "DATE OF ISSUE: 20240715",
        "EXPIRY DATE: 20240905",
        "PLACE OF EXPIRY: SANTOS,BRAZIL",
        "APPLICANT:",
        "SHENZHEN FEED GROUP CO.,LTD.",
        "SHENZHEN, CHINA",
        "AMOUNT: ABOUT USD485,000.00",
        "PARTIAL SHIPMENTS: ALLOWED",
        "TRANSSHIPMENT: NOT ALLOWED",
        "PRICE TERMS: CIF SHENZHEN",
      ].join("\n"),
    );
    const { values } = extractFields("letter_of_credit", [page]);
    expect(values).toMatchObject({
      lc_number: "LC2024-BZ-001",
      date_of_issue: "2024-07-15",
      expiry_date: "2024-09-05",
      expiry_place: "SANTOS,BRAZIL",
      applicant: "SHENZHEN FEED GROUP CO.,LTD.",
      applicant_address: "SHENZHEN, CHINA",
      currency: "USD",
      amount: 485000,
      tolerance_plus_pct: 10,
      tolerance_minus_pct: 10,
      partial_shipments: "allowed",
      transhipment: "not allowed",
      incoterms: "CIF SHENZHEN",
    });
    expect(validateExtracted("letter_of_credit", values)).toEqual([]);
  });
});
