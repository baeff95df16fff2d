import { describe, expect, test } from "vitest";
import { validateExtracted } from "../schema";
import { extractFields } from "./index";
import { layoutPage } from "./test-pages";

describe("commercial invoice", () => {
  const page = layoutPage(
    [
      "GOLDEN SAHEL COMMODITIES SARL",
      "ZONE INDUSTRIELLE DE VRIDI, ABIDJAN 15, COTE D'IVOIRE",
      "",
      "                          COMMERCIAL INVOICE",
      "Buyer / Bill to                                  Invoice No.: GSC-23-4166",
      " JAVA SEA COMMODITIES PT                         Date: 28.08.2023",
      " JL. RAYA PELABUHAN NO. 88                       L/C No.: BOSLC239232881",
      " JAKARTA 14310, INDONESIA                        Contract No.: GSC/SC/23/281",
      "",
      "Vessel: MV CORAL HARMONY      From: SAN PEDRO    To: TANJUNG PRIOK",
      "",
      "Description of Goods              Quantity   Unit      Unit Price          Amount",
      "ROBUSTA COFFEE BEANS, GRADE 2       26,000   MT          3.974,00      103.324,00",
      "ROBUSTA COFFEE BEANS, SCREEN 16     27,000   MT          4.437,00      119.799,00",
      "",
      "TOTAL CIF TANJUNG PRIOK: USD 223.123,00",
      "",
      "Packing: 1.200 BAGS",
      "Net weight: 53.000,000 KGS   Gross weight: 53.530,000 KGS",
      "HS Code: 0901.11",
      "Country of Origin: COTE D'IVOIRE",
    ].join("\n"),
  );
  const { values } = extractFields("commercial_invoice", [page]);

  test("letterhead seller, labelled header, decimal-comma table and total line", () => {
    expect(values).toEqual({
      invoice_number: "GSC-23-4166",
      invoice_date: "2023-08-28",
      seller: "GOLDEN SAHEL COMMODITIES SARL",
      seller_address: "ZONE INDUSTRIELLE DE VRIDI, ABIDJAN 15, COTE D'IVOIRE",
      buyer: "JAVA SEA COMMODITIES PT",
      buyer_address: "JL. RAYA PELABUHAN NO. 88 JAKARTA 14310, INDONESIA",
      currency: "USD",
      total_amount: 223123,
      // No total quantity printed: the items share a unit, so the invoiced quantity is their sum.
      quantity: 53,
      quantity_unit: "MT",
      incoterms: "CIF TANJUNG PRIOK",
      port_of_loading: "SAN PEDRO",
      port_of_discharge: "TANJUNG PRIOK",
      vessel: "MV CORAL HARMONY",
      lc_number: "BOSLC239232881",
      contract_number: "GSC/SC/23/281",
      gross_weight_kg: 53530,
      net_weight_kg: 53000,
      number_of_packages: 1200,
      country_of_origin: "Côte d'Ivoire",
      hs_codes: ["0901.11"],
      line_items: [
        { description: "ROBUSTA COFFEE BEANS, GRADE 2", quantity: 26, unit: "MT", unit_price: 3974, amount: 103324 },
        { description: "ROBUSTA COFFEE BEANS, SCREEN 16", quantity: 27, unit: "MT", unit_price: 4437, amount: 119799 },
      ],
    });
    expect(validateExtracted("commercial_invoice", values)).toEqual([]);
  });
});

describe("commercial invoice total row under the table's titles", () => {
  test("'TOTAL:' followed by the quantity's total reads the amount under the amount column", () => {
    const page = layoutPage(
      [
        "                          COMMERCIAL INVOICE",
        "",
        "Description of Goods          Quantity (MT)   Unit Price    Line Total   CCY",
        "RAW CASHEW NUTS IN SHELL            70.000     1,346.00     94,220.00   USD",
        "TOTAL:                              70.000                  94,220.00   USD",
      ].join("\n"),
    );
    const { values } = extractFields("commercial_invoice", [page]);
    expect(values).toMatchObject({ total_amount: 94220, quantity: 70, currency: "USD" });
  });
});

describe("contract", () => {
  test("numbered clauses with typed labels", () => {
    const page = layoutPage(
      [
        "                         SALES CONTRACT",
        "Contract No.: KHS/SC/25/910                            Date: 26 April 2025",
        "THE SELLER:             KERALA HILL SPICES PVT LTD",
        "                        KOCHI 682030, INDIA",
        "THE BUYER:              LAGOON FOODS NIGERIA LIMITED",
        "                        APAPA, LAGOS, NIGERIA",
        "",
        "1. COMMODITY:           BLACK PEPPER WHOLE",
        "2. QUANTITY:            22.000 MT (+/- 5% AT SELLER'S OPTION)",
        "3. PRICE:               USD 3,658.27 PER MT CFR APAPA (INCOTERMS 2020)",
        "4. TOTAL VALUE:         USD 80,482.00",
        "5. SHIPMENT:            FROM COCHIN TO APAPA, NOT LATER THAN 24 June 2025",
        "6. PAYMENT:             L/C AT SIGHT",
      ].join("\n"),
    );
    const { values } = extractFields("contract", [page]);
    expect(values).toMatchObject({
      contract_number: "KHS/SC/25/910",
      date_of_issue: "2025-04-26",
      seller: "KERALA HILL SPICES PVT LTD",
      seller_address: "KOCHI 682030, INDIA",
      buyer: "LAGOON FOODS NIGERIA LIMITED",
      description_of_goods: "BLACK PEPPER WHOLE",
      quantity: 22,
      quantity_unit: "MT",
      unit_price: 3658.27,
      currency: "USD",
      total_amount: 80482,
      incoterms: "CFR APAPA",
      port_of_loading: "COCHIN",
      port_of_discharge: "APAPA",
      payment_terms: "L/C AT SIGHT",
      tolerance_pct: 5,
    });
    expect(validateExtracted("contract", values)).toEqual([]);
  });
});

describe("contract wordings", () => {
  test("the buyer 'Invoice to' and the latest shipment date 'Shipment not later than'", () => {
    const page = layoutPage(
      [
        "                              SALES CONTRACT",
        "Invoice to:                GULF PEARL GENERAL TRADING W.L.L.",
        "                           BUILDING 221, ROAD 15, HIDD",
        "Shipment not later than:   31 July 2023",
      ].join("\n"),
    );
    expect(extractFields("contract", [page]).values).toMatchObject({ buyer: "GULF PEARL GENERAL TRADING W.L.L.", buyer_address: "BUILDING 221, ROAD 15, HIDD", latest_shipment_date: "2023-07-31" });
  });
});

describe("contract tolerance", () => {
  test("a bare number under a tolerance title is the percentage", () => {
    const values = extractFields("contract", [layoutPage(["Quantity:           72.000 MT", "More or Less (%):   10", "Tolerance pct:      5"].join("\n"))]).values;
    expect(values.tolerance_pct).toBe(10);
  });

  test("a bare number under the quantity is no tolerance", () => {
    const values = extractFields("contract", [layoutPage(["Quantity:", "72"].join("\n"))]).values;
    expect(values.tolerance_pct).toBeUndefined();
  });
});

describe("document instruction", () => {
  test("a presenter's covering letter in prose with a numbered list", () => {
    const page = layoutPage(
      [
        "Ref: DI/629107                                              Date: April 1, 2024",
        "Re: Presentation of documents under L/C No. BOSLC242802949, Contract No. TGM/SC/24/441",
        "Documents enclosed:",
        "   1. COMMERCIAL INVOICE NO. TGM-24-2457 IN 3 ORIGINALS",
        "   2. FULL SET (3/3) ORIGINAL BILLS OF LADING",
        "   3. PACKING LIST IN 3 ORIGINALS",
      ].join("\n"),
    );
    const { values } = extractFields("document_instruction", [page]);
    expect(values).toMatchObject({
      reference_number: "DI/629107",
      date_of_issue: "2024-04-01",
      lc_number: "BOSLC242802949",
      contract_number: "TGM/SC/24/441",
      documents_required: [
        "COMMERCIAL INVOICE NO. TGM-24-2457 IN 3 ORIGINALS",
        "FULL SET (3/3) ORIGINAL BILLS OF LADING",
        "PACKING LIST IN 3 ORIGINALS",
      ],
    });
    expect(validateExtracted("document_instruction", values)).toEqual([]);
  });
});
