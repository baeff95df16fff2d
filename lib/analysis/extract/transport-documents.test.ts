import { describe, expect, test } from "vitest";
import { validateExtracted } from "../schema";
import { containerCheckDigit } from "../normalize/container";
import { extractFields } from "./index";
import { layoutPage, layoutPages } from "./test-pages";

const container = (prefix: string) => `${prefix}${containerCheckDigit(prefix)}`;
const C1 = container("TRCU821406");
const C2 = container("MSKU555123");

describe("bill of lading", () => {
  const page = layoutPage(
    [
      "Shipper / Exporter                                   B/L No.              Booking No.",
      " MEKONG GREEN FOODS JSC                               TCSL200835930        BKG65686916",
      " LOT C4, TAN THUAN EXPORT ZONE",
      " VIETNAM",
      "",
      "Consignee (or order)",
      " TO THE ORDER OF ARABIAN CAPITAL BANK",
      "",
      "Notify Party",
      " GULF PEARL TRADING W.L.L.",
      " HIDD, KINGDOM OF BAHRAIN",
      "",
      "Place of Receipt                  Ocean Vessel / Voy. No.",
      " HO CHI MINH CITY CY               NORTHERN STARLING / 548E",
      "",
      "Port of Loading                   Port of Discharge",
      " HO CHI MINH CITY                  KHALIFA BIN SALMAN",
      "",
      "Marks & Nos / Container          Description of Packages and Goods        Gross Weight      Measurement",
      `${C1.slice(0, 4)} ${C1.slice(4, 10)}-${C1.slice(10)}                     1,420 BAGS SAID TO CONTAIN:              71,213.10 KGS     92.300 M3`,
      `${C2}                      LONG GRAIN WHITE RICE`,
      "SEAL: UZ690234",
      "",
      "HS CODE: 1006.30    FREIGHT PREPAID",
      "SHIPPED ON BOARD: March 24, 2024",
      "",
      "Number of Original B(s)/L: THREE (3)",
      "Place and Date of Issue",
      " HO CHI MINH CITY, 25/03/2024",
    ].join("\n"),
  );
  const { values, evidence } = extractFields("bill_of_lading", [page]);

  test("reads the boxes, the cargo table and the notations", () => {
    expect(values).toMatchObject({
      bl_number: "TCSL200835930",
      booking_number: "BKG65686916",
      shipper: "MEKONG GREEN FOODS JSC",
      shipper_address: "LOT C4, TAN THUAN EXPORT ZONE VIETNAM",
      consignee: "TO THE ORDER OF ARABIAN CAPITAL BANK",
      notify_party: "GULF PEARL TRADING W.L.L.",
      vessel: "NORTHERN STARLING",
      voyage: "548E",
      place_of_receipt: "HO CHI MINH CITY CY",
      port_of_loading: "HO CHI MINH CITY",
      port_of_discharge: "KHALIFA BIN SALMAN",
      container_numbers: [C1, C2],
      seal_numbers: ["UZ690234"],
      number_of_packages: 1420,
      package_type: "BAGS",
      description_of_goods: "LONG GRAIN WHITE RICE",
      hs_codes: ["1006.30"],
      gross_weight_kg: 71213.1,
      measurement_cbm: 92.3,
      freight_terms: "prepaid",
      shipped_on_board_date: "2024-03-24",
      number_of_originals: 3,
      place_of_issue: "HO CHI MINH CITY",
      date_of_issue: "2024-03-25",
    });
    expect(validateExtracted("bill_of_lading", values)).toEqual([]);
  });

  test("leaves out what the document does not carry", () => {
    expect(values).not.toHaveProperty("net_weight_kg");
    expect(values).not.toHaveProperty("lc_number");
    expect(values).not.toHaveProperty("carrier");
  });

  test("evidence boxes the value on its page", () => {
    const bl = evidence.bl_number!;
    expect(bl.page).toBe(1);
    expect(bl.text).toBe("TCSL200835930");
    expect(bl.bbox[0]).toBeGreaterThan(0.5);
    expect(bl.bbox[2]).toBeGreaterThan(bl.bbox[0]);
    expect(bl.confidence).toBeGreaterThan(0.5);
    expect(Object.keys(evidence).sort()).toEqual(Object.keys(values).sort());
  });
});

describe("packing list", () => {
  test("header labels and table totals, over two pages", () => {
    const pages = layoutPages(
      [
        "NILE DELTA AGRO EXPORT CO.",
        "12 EL SHAHID STREET, DAMIETTA, EGYPT",
        "",
        "                PACKING LIST",
        "Packing List No.: PL-24-118        Date: 11.02.2024",
        "Invoice No.: NDA-24-9116",
        "Consignee: BALTIC HARVEST IMPORT SIA",
        "Vessel: NORTHERN STARLING",
        "Port of Loading: ALEXANDRIA        Port of Discharge: RIGA",
        "",
        "Description         Packages       Net Weight (KGS)     Gross Weight (KGS)     CBM",
        "MILLING WHEAT       20 BIG BAGS    20,000.000           20,060.000             30.5",
        "MILLING WHEAT       25 BIG BAGS    25,000.000           25,075.000             38.1",
      ].join("\n"),
      ["TOTAL               45 BIG BAGS    45,000.000           45,135.000             68.6"].join("\n"),
    );
    const { values } = extractFields("packing_list", pages);
    expect(values).toMatchObject({
      packing_list_number: "PL-24-118",
      date_of_issue: "2024-02-11",
      invoice_number: "NDA-24-9116",
      seller: "NILE DELTA AGRO EXPORT CO.",
      consignee: "BALTIC HARVEST IMPORT SIA",
      vessel: "NORTHERN STARLING",
      port_of_loading: "ALEXANDRIA",
      port_of_discharge: "RIGA",
      net_weight_kg: 45000,
      gross_weight_kg: 45135,
      measurement_cbm: 68.6,
      number_of_packages: 45,
      package_type: "BIG BAGS",
    });
    expect(validateExtracted("packing_list", values)).toEqual([]);
  });
});

describe("bill of lading boxes beside a wrapped clause", () => {
  // A "Terms" clause wraps down the right-hand box; its last line shares a row with the notify label on the left.
  const page = layoutPage(
    [
      "Consignee (or order)                                        B/L No.          Booking Ref.",
      " TO THE ORDER OF BANK OF THE STRAITS BERHAD                 PCMC844682570    BKG79984719",
      "                                                            Terms",
      "                                                            RECEIVED by the Carrier from the Shipper in apparent",
      "                                                            good order and condition unless otherwise noted, one",
      "Notify Party (no claim to attach for failure to notify)     duly endorsed in exchange for the goods.",
      " JAVA SEA COMMODITIES PT",
      " JL. RAYA PELABUHAN NO. 88",
      "",
      "Port of Loading                                             Port of discharging       Place of Delivery",
      " HAIPHONG                                                   TANJUNG PRIOK             TANJUNG PRIOK CY",
    ].join("\n"),
  );
  const { values } = extractFields("bill_of_lading", [page]);

  test("takes the party under its label, not the end of the clause beside it", () => {
    expect(values.notify_party).toBe("JAVA SEA COMMODITIES PT");
  });

  test("knows 'Port of discharging' as the port of discharge", () => {
    expect(values).toMatchObject({ port_of_loading: "HAIPHONG", port_of_discharge: "TANJUNG PRIOK", place_of_delivery: "TANJUNG PRIOK CY" });
  });
});

describe("bill of lading with a seal column in its container table", () => {
  const C3 = container("TRCU218449");
  const page = layoutPage(
    [
      "Container No.       Seal No.      Packages    Gross kg      CBM",
      `${C3.slice(0, 4)} ${C3.slice(4)}        XG414042      450         22,500.00     30.000`,
      `${C2}         CX847598      450         22,500.00     30.000`,
      "TOTAL                             900         45,000.00     60.000",
    ].join("\n"),
  );
  const { values } = extractFields("bill_of_lading", [page]);

  test("reads one seal per container row, never the container's serial", () => {
    expect(values.seal_numbers).toEqual(["XG414042", "CX847598"]);
    expect(values.container_numbers).toEqual([C3, C2]);
  });
});

describe("bill of lading consigned to the order of a bank whose legal form wraps", () => {
  test.each(["P.J.S.C.", "B.S.C.", "A.S."])("'%s' alone on the next line ends the name, it is no address", (form) => {
    const values = extractFields("bill_of_lading", [layoutPage(["Consignee", "TO THE ORDER OF GULFSTAR COMMERCIAL BANK", form, "", "Vessel", "MV OCEAN PEARL"].join("\n"))]).values;
    expect(values.consignee).toBe(`TO THE ORDER OF GULFSTAR COMMERCIAL BANK ${form}`);
    expect(values.consignee_address).toBeUndefined();
  });
});

describe("bill of lading with seals that start with HS", () => {
  test("a seal 'HS884213' is no HS code; a real 'HS CODE' beside it still is", () => {
    const rows = (extra: string[]) =>
      layoutPage(
        [
          "Container No.       Seal No.      Packages    Gross kg      CBM",
          `${C2}         HS884213      450         22,500.00     30.000`,
          `${container("TRCU218449")}         HS-771920     450         22,500.00     30.000`,
          "TOTAL                             900         45,000.00     60.000",
          ...extra,
        ].join("\n"),
      );
    const plain = extractFields("bill_of_lading", [rows([])]).values;
    expect(plain.seal_numbers).toEqual(["HS884213", "HS-771920"]);
    expect(plain.hs_codes).toBeUndefined();
    expect(extractFields("bill_of_lading", [rows(["", "GREEN COFFEE BEANS HS CODE 0901.11"])]).values.hs_codes).toEqual(["0901.11"]);
  });
});

describe("bill of lading with a 'Cargo' box", () => {
  test("the goods under a box titled Cargo are the description of goods", () => {
    const values = extractFields("bill_of_lading", [layoutPage(["Port of Discharge          Cargo", "JEDDAH                     GREEN ARABICA COFFEE"].join("\n"))]).values;
    expect(values).toMatchObject({ port_of_discharge: "JEDDAH", description_of_goods: "GREEN ARABICA COFFEE" });
  });
});

describe("a reference read off a scanned form", () => {
  test("ends at its last letter or digit: the underline or box edge OCR reads after it is not part of it", () => {
    for (const [printed, expected] of [["MOLU785503112_", "MOLU785503112"], ["MOLU785503112 |", "MOLU785503112"], ["|TCSL200835930.", "TCSL200835930"], ["HLCU-DXB-2291", "HLCU-DXB-2291"]]) {
      const { values } = extractFields("bill_of_lading", [layoutPage(`BILL OF LADING\nB/L No.: ${printed}\nShipper\n ACME LTD`)]);
      expect(values.bl_number).toBe(expected);
    }
  });
});
