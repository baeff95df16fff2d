import { describe, expect, test } from "vitest";
import { containerCheckDigit } from "../normalize/container";
import { validateExtracted } from "../schema";
import { extractFields } from "./index";
import { layoutPage } from "./test-pages";

const C1 = `SCNU716357${containerCheckDigit("SCNU716357")}`;
const C2 = `SCNU607469${containerCheckDigit("SCNU607469")}`;

describe("certificate of origin", () => {
  test.each([
    ["a label that names the tariff, its value in the next column", ["HS Tariff Code:        0713.33"]],
    ["a customs code with its value below", ["Customs Code", "0901.11"]],
    ["a tariff number with its value below", ["Tariff No.", "0801.31"]],
    ["the abbreviation alone over its value", ["H.S.", "1207.40"]],
  ])("HS codes under %s", (_, rows) => {
    const page = layoutPage(["                        CERTIFICATE OF ORIGIN", "", "Description of Goods:  RED SPLIT LENTILS", ...rows].join("\n"));
    const code = rows.join(" ").match(/\d{4}\.\d{2}/)![0];
    expect(extractFields("certificate_of_origin", [page]).values.hs_codes).toEqual([code]);
  });

  test("numbered boxes, goods table, chamber heading and the place-date line", () => {
    const page = layoutPage(
      [
        "                 BUSAN CHAMBER OF COMMERCE AND INDUSTRY",
        "                        CERTIFICATE OF ORIGIN",
        "1. Exporter                                  Reference No.",
        "HANSHIN CHEMICALS CO., LTD.                  A25481426",
        "18-6, JUNGANG-DAERO, BUSAN",
        "REPUBLIC OF KOREA",
        "",
        "2. Consignee                                 3. Country of origin",
        "PEARL GULF AGRI SUPPLIES LLC                 REPUBLIC OF KOREA",
        "SHARJAH, UAE",
        "",
        "4. Transport details                         5. Country of destination",
        "BY SEA PER BUSAN PIONEER                     U.A.E.",
        "FROM BUSAN TO PORT KHALID",
        "",
        "Marks & Nos       Packages and description of goods      HS Code      Gross weight",
        "",
        "PG/SHJ 1-5        250 CARTONS OF FUNGICIDES              3808.92      6,900.000 KGS",
        "",
        "BUSAN, 25/11/2023",
      ].join("\n"),
    );
    const { values } = extractFields("certificate_of_origin", [page]);
    expect(values).toEqual({
      certificate_number: "A25481426",
      date_of_issue: "2023-11-25",
      exporter: "HANSHIN CHEMICALS CO., LTD.",
      exporter_address: "18-6, JUNGANG-DAERO, BUSAN REPUBLIC OF KOREA",
      consignee: "PEARL GULF AGRI SUPPLIES LLC",
      country_of_origin: "South Korea",
      destination_country: "United Arab Emirates",
      issuing_authority: "BUSAN CHAMBER OF COMMERCE AND INDUSTRY",
      vessel: "BUSAN PIONEER",
      port_of_loading: "BUSAN",
      port_of_discharge: "PORT KHALID",
      description_of_goods: "FUNGICIDES",
      hs_codes: ["3808.92"],
      number_of_packages: 250,
      gross_weight_kg: 6900,
    });
    expect(validateExtracted("certificate_of_origin", values)).toEqual([]);
  });
});

describe("certificate of origin issued under a chamber's letterhead", () => {
  test.each([
    ["VIETNAM CHAMBER OF COMMERCE AND INDUSTRY Tel: +34 597 863 6868", "VIETNAM CHAMBER OF COMMERCE AND INDUSTRY"],
    ["FEDERACAO DAS ASSOCIACOES COMERCIAIS DE GOIAS 919 512 8666", "FEDERACAO DAS ASSOCIACOES COMERCIAIS DE GOIAS"],
    ["HANDELSKAMMER HAMBURG", "HANDELSKAMMER HAMBURG"],
  ])("'%s' names the issuing authority without its contact", (letterhead, authority) => {
    const page = layoutPage([letterhead, "", "                 CERTIFICATE OF ORIGIN", "Certificate No.: A94803450"].join("\n"));
    expect(extractFields("certificate_of_origin", [page]).values.issuing_authority).toBe(authority);
  });
});

describe("certificates of weight and quality", () => {

  test("a laboratory's 'Analysis' column names the parameters, beside method, result and limit columns", () => {
    const page = layoutPage(
      [
        "                        CERTIFICATE OF ANALYSIS",
        "",
        "Analysis              Method        Found      Limit      Unit",
        "Moisture              ISO 5223      10.4       Max 12     %",
        "Defects per 300 g     ISO 6540      9          Max 12     pcs",
      ].join("\n"),
    );
    expect(extractFields("certificate_of_quality", [page]).values.quality_parameters).toEqual([
      { name: "Moisture", value: 10.4, unit: "%" },
      { name: "Defects per 300 g", value: 9, unit: "pcs" },
    ]);
  });
  test("weights stated in the surveyor's sentence, containers validated", () => {
    const page = layoutPage(
      [
        "Certificate No.: WC/270204                      Date: 19/10/2023",
        "Shipper: TASMAN GRAIN MERCHANTS PTY LTD",
        "Vessel: AURORA BREEZE",
        "Date of weighing: 16/10/2023",
        `Containers: ${C1}, ${C2}, SCNU1234560`,
        "WE CERTIFY that the total gross weight was found",
        "to be 72.900,000 KGS, the tare of the containers 8.250,000 KGS and the net weight 64.650,000 KGS.",
        "For and on behalf of ATLAS MARINE INSPECTORATE",
      ].join("\n"),
    );
    const { values } = extractFields("certificate_of_weight", [page]);
    expect(values).toMatchObject({
      certificate_number: "WC/270204",
      date_of_issue: "2023-10-19",
      issuer: "ATLAS MARINE INSPECTORATE",
      shipper: "TASMAN GRAIN MERCHANTS PTY LTD",
      vessel: "AURORA BREEZE",
      date_of_weighing: "2023-10-16",
      gross_weight_kg: 72900,
      tare_weight_kg: 8250,
      net_weight_kg: 64650,
    });
    // SCNU1234560 has a wrong check digit and is left out.
    expect(values.container_numbers).toEqual([C1, C2]);
    expect(validateExtracted("certificate_of_weight", values)).toEqual([]);
  });

  test("a container table whose titles no label names reads its weights from the TOTAL row, in the unit printed there", () => {
    const page = layoutPage(
      [
        "Certificate No.: WC/924466          Date: 16/10/2024",
        "",
        "Container         Cargo Gross kg     Tare (kg)     Net (kg)",
        `${C1}             24,072.0      3,800.0     24,000.0`,
        `${C2}             23,069.0      2,300.0     23,000.0`,
        "TOTAL             103,928 LBS    13,448 LBS   103,617 LBS",
      ].join("\n"),
    );
    const { values } = extractFields("certificate_of_weight", [page]);
    // 103,617 lb is 46,999.88 kg: the first row's 24,000.0 under "Net (kg)" is one container's, not the certificate's net.
    expect(values).toMatchObject({ gross_weight_kg: 47140.948, tare_weight_kg: 6099.91, net_weight_kg: 46999.881 });
  });

  test("quality results from a table and from dotted lines", () => {
    const table = layoutPage(
      [
        "Certificate No.: QC-191191",
        "Parameter              Result        Unit       Specification",
        "Moisture               11.9          %          max 13.0",
        "Protein (dry basis)    12.8          %          min 12.0",
      ].join("\n"),
    );
    expect(extractFields("certificate_of_quality", [table]).values.quality_parameters).toEqual([
      { name: "Moisture", value: 11.9, unit: "%" },
      { name: "Protein (dry basis)", value: 12.8, unit: "%" },
    ]);
    const lines = layoutPage(["FINDINGS", "   Moisture ............ 11 %", "   Bulk density ........ 562 g/l", "", "Samples drawn at random."].join("\n"));
    const { values } = extractFields("certificate_of_quality", [lines]);
    expect(values.quality_parameters).toEqual([
      { name: "Moisture", value: 11, unit: "%" },
      { name: "Bulk density", value: 562, unit: "g/l" },
    ]);
    expect(validateExtracted("certificate_of_quality", values)).toEqual([]);
  });
});

describe("phytosanitary and fumigation certificates", () => {
  test("a label whose bracket wraps under it ('Exporter (name,' / 'address, country)') keeps the address beside it", () => {
    const page = layoutPage(
      [
        "Exporter (name,        GOLDEN SAHEL COMMODITIES SARL",
        "address, country)      ZONE INDUSTRIELLE DE VRIDI, LOT 88",
        "                       ABIDJAN 15",
        "                       COTE D'IVOIRE",
        "Ship to                GULF PEARL GENERAL TRADING W.L.L.",
      ].join("\n"),
    );
    const { values } = extractFields("phytosanitary_certificate", [page]);
    expect(values).toMatchObject({ exporter: "GOLDEN SAHEL COMMODITIES SARL", exporter_address: "ZONE INDUSTRIELLE DE VRIDI, LOT 88 ABIDJAN 15 COTE D'IVOIRE" });
  });


  test("wordings of the plant-health boxes: place of production, transport, treatment applied, treated on", () => {
    const page = layoutPage(
      [
        "                        PHYTOSANITARY CERTIFICATE",
        "Place of Production:   IZMIR, TURKEY",
        "Transport:             BY SEA - NORTHERN STARLING",
        "Treatment Applied:     FUMIGATION WITH METHYL BROMIDE",
        "Treated on:            21 July 2023",
      ].join("\n"),
    );
    expect(extractFields("phytosanitary_certificate", [page]).values).toMatchObject({
      place_of_origin: "IZMIR, TURKEY",
      means_of_conveyance: "BY SEA - NORTHERN STARLING",
      treatment: "FUMIGATION WITH METHYL BROMIDE",
      treatment_date: "2023-07-21",
    });
  });
  test("IPPC model lines", () => {
    const page = layoutPage(
      [
        "TO: THE PLANT PROTECTION ORGANIZATION(S) OF MALAYSIA                 No. UA/PC/2047474",
        "Name and address of exporter:         ODESA BLACK SOIL AGRO LLC",
        "                                      IZMAIL 68600, UKRAINE",
        "Place of origin:                      IZMAIL, UKRAINE",
        "Declared means of conveyance:         BY SEA - MV SILVER HERON",
        "Declared point of entry:              PORT KLANG",
        "Name of produce and quantity declared: RAW CASHEW NUTS - 23,040 KGS NET",
        "Botanical name of plants:             Anacardium occidentale",
        "III. DISINFESTATION AND/OR DISINFECTION TREATMENT",
        "Date: 20 July 2025 Treatment: FUMIGATION WITH METHYL BROMIDE",
        "Place of issue: IZMAIL           Date: 24 July 2025",
      ].join("\n"),
    );
    const { values } = extractFields("phytosanitary_certificate", [page]);
    expect(values).toMatchObject({
      certificate_number: "UA/PC/2047474",
      destination_country: "Malaysia",
      exporter: "ODESA BLACK SOIL AGRO LLC",
      exporter_address: "IZMAIL 68600, UKRAINE",
      place_of_origin: "IZMAIL, UKRAINE",
      country_of_origin: "Ukraine",
      means_of_conveyance: "BY SEA - MV SILVER HERON",
      point_of_entry: "PORT KLANG",
      description_of_goods: "RAW CASHEW NUTS",
      quantity_declared: "23,040 KGS NET",
      botanical_name: "Anacardium occidentale",
      treatment: "FUMIGATION WITH METHYL BROMIDE",
      treatment_date: "2025-07-20",
      date_of_issue: "2025-07-24",
    });
    expect(validateExtracted("phytosanitary_certificate", values)).toEqual([]);
  });

  test("fumigation details in a grid", () => {
    const page = layoutPage(
      [
        "Certificate No.: FUM-65519                      Date of issue: 8 November 2023",
        "Fumigant used              Date of fumigation          Place of fumigation",
        " METHYL BROMIDE             6 November 2023             DAMIETTA CONTAINER YARD",
        "Prescribed dose rate       Exposure time               Ambient temperature",
        " 48 G/M3                    2 DAYS                      68 DEG F",
      ].join("\n"),
    );
    const { values } = extractFields("fumigation_certificate", [page]);
    expect(values).toEqual({
      certificate_number: "FUM-65519",
      date_of_issue: "2023-11-08",
      fumigation_date: "2023-11-06",
      fumigation_place: "DAMIETTA CONTAINER YARD",
      fumigant: "METHYL BROMIDE",
      dosage: "48 G/M3",
      duration_hours: 48,
      temperature_c: 20,
    });
    expect(validateExtracted("fumigation_certificate", values)).toEqual([]);
  });
});
