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
