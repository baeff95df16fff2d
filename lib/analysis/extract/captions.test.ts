/**
 * Labels printed under their values: boxed forms with a small caption at the
 * foot of each box, bracketed captions as signature blocks print them, and
 * the arrangements that must not be taken for them (small titles over their
 * values, label cells beside their values).
 */
import { describe, expect, test } from "vitest";
import { extractFields } from "./index";
import { layoutPage } from "./test-pages";

const read = (type: Parameters<typeof extractFields>[0], ...rows: string[]) => extractFields(type, [layoutPage(rows.join("\n"))]).values;

describe("captions under their values", () => {
  test("a boxed form: each value over its small caption, a party block over its own", () => {
    const values = read(
      "commercial_invoice",
      "                              COMMERCIAL INVOICE",
      "",
      "INV-20931                         14 March 2025",
      "°Invoice No.                       Date",
      "",
      "ACME FOODS LTD",
      "12 HARBOUR ROAD",
      "LAGOS, NIGERIA",
      "°Buyer",
      "MV OCEAN PEARL           SANTOS                 ROTTERDAM",
      "°Vessel                   Port of Loading        Port of Discharge",
    );
    expect(values).toMatchObject({
      invoice_number: "INV-20931",
      invoice_date: "2025-03-14",
      buyer: "ACME FOODS LTD",
      buyer_address: "12 HARBOUR ROAD LAGOS, NIGERIA",
      vessel: "MV OCEAN PEARL",
      port_of_loading: "SANTOS",
      port_of_discharge: "ROTTERDAM",
    });
  });

  test("captions in brackets, and a caption set at the right of its box under a value at the left", () => {
    const values = read(
      "certificate_of_origin",
      "                              CERTIFICATE OF ORIGIN",
      "",
      "A94803450                                      12 Nov 2024",
      "°                (Certificate No.)                            (Date of Issue)",
      "",
      "MEKONG GREEN FOODS JSC",
      "LOT C4, TAN THUAN EXPORT ZONE, HO CHI MINH CITY",
      "°                  (Exporter (name and address))",
      "HAIPHONG                                       RIGA",
      "°               (Port of Loading)                         (Port of Discharge)",
    );
    expect(values).toMatchObject({
      certificate_number: "A94803450",
      date_of_issue: "2024-11-12",
      exporter: "MEKONG GREEN FOODS JSC",
      exporter_address: "LOT C4, TAN THUAN EXPORT ZONE, HO CHI MINH CITY",
      port_of_loading: "HAIPHONG",
      port_of_discharge: "RIGA",
    });
  });

  test("a preprinted stack of boxes: each caption takes the value in its own box, over the box's blank room, never the next box's value under it", () => {
    const values = read(
      "bill_of_lading",
      "                              BILL OF LADING",
      "",
      "MOLU738018696",
      "°B/L No.",
      "",
      "",
      "",
      "",
      "ACME FOODS LTD",
      "12 HARBOUR ROAD, LAGOS",
      "",
      "",
      "°Shipper",
      "TO THE ORDER OF NORDIC BANK AS",
      "",
      "",
      "",
      "°Consignee",
      "HORIZON FORWARDING LLC",
      "",
      "",
      "",
      "°Notify Party",
      "",
      "",
      "",
      "",
      "MV OCEAN PEARL",
      "",
      "°Vessel",
      "SANTOS",
      "",
      "°Port of Loading",
      "ROTTERDAM",
      "",
      "°Port of Discharge",
    );
    expect(values).toMatchObject({
      bl_number: "MOLU738018696",
      shipper: "ACME FOODS LTD",
      consignee: "TO THE ORDER OF NORDIC BANK AS",
      notify_party: "HORIZON FORWARDING LLC",
      vessel: "MV OCEAN PEARL",
      port_of_loading: "SANTOS",
      port_of_discharge: "ROTTERDAM",
    });
  });

  test("a signature's caption under blank room takes no value from the 'For and on behalf of' block above it", () => {
    const values = read(
      "contract",
      "                              CONTRACT OF SALE",
      "",
      "HKK/SC/23/831                     31 January 2023",
      "°(Contract Ref.)                   (Issued on)",
      "",
      "HANSEATIC KAFFEE KONTOR GMBH",
      "AM SANDTORKAI 48, HAMBURG",
      "°(Exporter)",
      "",
      "For and on behalf of HANSEATIC KAFFEE KONTOR GMBH /",
      "AL NOOR FOODSTUFF TRADING LLC",
      "",
      "",
      "°THE SELLER / THE BUYER",
    );
    expect(values).toMatchObject({ contract_number: "HKK/SC/23/831", seller: "HANSEATIC KAFFEE KONTOR GMBH" });
  });

  test("small titles over their values are still read downwards", () => {
    const values = read(
      "commercial_invoice",
      "                              COMMERCIAL INVOICE",
      "",
      "°Invoice No.                       Date",
      "INV-20931                         14 March 2025",
      "°Vessel                            Port of Loading",
      "MV OCEAN PEARL                    SANTOS",
    );
    expect(values).toMatchObject({ invoice_number: "INV-20931", invoice_date: "2025-03-14", vessel: "MV OCEAN PEARL", port_of_loading: "SANTOS" });
  });

  test("labels beside their values, wrapping under themselves at the end of a section, are no captions", () => {
    const values = read(
      "commercial_invoice",
      "                              COMMERCIAL INVOICE",
      "",
      "",
      "PARTIES",
      "Consignee (name      TO ORDER OF NORDIC BANK AS",
      "and address)",
      "Vessel               MV OCEAN PEARL",
      "",
      "",
      "SHIPMENT",
      "Notify Party (full   HORIZON FORWARDING LLC",
      "address)",
      "Origin               BRAZIL",
      "",
      "",
      "Description of Goods    Quantity    Unit Price    Amount",
    );
    expect(values).toMatchObject({ vessel: "MV OCEAN PEARL", country_of_origin: "Brazil" });
  });
});
