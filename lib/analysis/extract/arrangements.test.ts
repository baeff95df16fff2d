/**
 * Arrangements of labels and values that trade documents use, each on a small
 * synthetic page: the failure families of issue 10 (label and value far apart,
 * totals, party blocks, specification columns), not the look of one file.
 */
import { describe, expect, test } from "vitest";
import { extractFields } from "./index";
import { layoutPage } from "./test-pages";

const invoice = (...rows: string[]) => extractFields("commercial_invoice", [layoutPage(rows.join("\n"))]).values;

describe("label and value on one row, far apart", () => {
  test("a stack of labels at mid-page with values right-aligned at the page edge", () => {
    const values = invoice(
      "                                   COMMERCIAL INVOICE",
      "",
      "                                   Inv. No.:                             INV-88812",
      "                                   Date:                               12 Mar 2025",
      "                                   Vessel / Voyage:               MSC AURORA / 123W",
      "                                   Loading Port:                            SANTOS",
      "                                   Discharge Port:                       ROTTERDAM",
      "                                   Country of Origin:                       BRAZIL",
    );
    expect(values).toMatchObject({
      invoice_number: "INV-88812",
      invoice_date: "2025-03-12",
      vessel: "MSC AURORA",
      port_of_loading: "SANTOS",
      port_of_discharge: "ROTTERDAM",
      country_of_origin: "Brazil",
    });
  });

  test("labels at the left margin, values at the right edge", () => {
    const values = invoice(
      "Invoice Number:                                                          7731-A",
      "Port of Loading:                                                     HAIPHONG",
      "Country of Origin:                                                    VIETNAM",
    );
    expect(values).toMatchObject({ invoice_number: "7731-A", port_of_loading: "HAIPHONG", country_of_origin: "Vietnam" });
  });

  test("a box title with its value below is not paired with a far heading on its row", () => {
    const values = extractFields("bill_of_lading", [
      layoutPage(["Shipper:                                                       BILL OF LADING", " ACME TRADING LTD", " 12 HARBOUR ROAD, SINGAPORE"].join("\n")),
    ]).values;
    expect(values.shipper).toBe("ACME TRADING LTD");
  });
});
