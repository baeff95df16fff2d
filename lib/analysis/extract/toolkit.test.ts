import { describe, expect, test } from "vitest";
import { prepareDocument } from "./document";
import { findLabelled } from "./find-value";
import { readParty } from "./party";
import { readTable } from "./table";
import { layoutPage, layoutPages } from "./test-pages";
import { parseTags, splitItems, tagValue } from "./mt700";

const textOf = (doc: ReturnType<typeof prepareDocument>, keys: string[], maxLines = 1) =>
  findLabelled(doc, keys, (f) => f.text.trim() || undefined, { maxLines })?.value;

describe("labelled values", () => {
  test("label and value on one line, with or without a colon", () => {
    const doc = prepareDocument([layoutPage("Invoice No.: INV-1\nB/L No ABCD123\nPort of Loading Shanghai")]);
    expect(textOf(doc, ["invoice_number"])).toBe("INV-1");
    expect(textOf(doc, ["bl_number"])).toBe("ABCD123");
    expect(textOf(doc, ["port_of_loading"])).toBe("Shanghai");
  });

  test("a label that opens a bracket closes it: the bracket is never the value's first character", () => {
    const doc = prepareDocument([
      layoutPage("Consignee (name and address): TO THE ORDER OF GULFSTAR BANK\nShipper (Name and Address)\n ANATOLIA PULSES TRADING A.S."),
    ]);
    expect(textOf(doc, ["consignee"])).toBe("TO THE ORDER OF GULFSTAR BANK");
    expect(textOf(doc, ["shipper"], 2)).toBe("ANATOLIA PULSES TRADING A.S.");
  });

  test.each([
    ["Deliver to", "consignee"],
    ["Method of Payment", "payment_terms"],
    ["Contract Quantity", "quantity"],
    ["Shipment by", "latest_shipment_date"],
    ["M/V", "vessel"],
    ["Carrier Booking No.", "booking_number"],
    ["Transport Document No.", "bl_number"],
    ["DC Ref.", "lc_number"],
    ["Packing Specification No.", "packing_list_number"],
    ["Presenter", "beneficiary"],
    ["Equipment", "container_numbers"],
  ])("common wording '%s' labels %s", (label, key) => {
    const doc = prepareDocument([layoutPage(`${label}: VALUE-1`)]);
    expect(textOf(doc, [key])).toBe("VALUE-1");
  });

  test("an abbreviated one-word title with its unit in brackets ('Temp. (C)') is a box title, not the end of a sentence", () => {
    const doc = prepareDocument([layoutPage("Temp. (C)\n25")]);
    expect(textOf(doc, ["temperature"])).toBe("25");
  });

  test("value in the next column of the same row", () => {
    const doc = prepareDocument([layoutPage("B/L NUMBER:       SCNV484622962\nVESSEL:           MV CORAL")]);
    expect(textOf(doc, ["bl_number"])).toBe("SCNV484622962");
    expect(textOf(doc, ["vessel"])).toBe("MV CORAL");
  });

  test("value below its label in a box, until the next label", () => {
    const doc = prepareDocument([
      layoutPage("Port of Loading\n ROTTERDAM\n\nPort of Discharge\n JEBEL ALI"),
    ]);
    expect(textOf(doc, ["port_of_loading"], 3)).toBe("ROTTERDAM");
    expect(textOf(doc, ["port_of_discharge"], 3)).toBe("JEBEL ALI");
  });

  test("two boxes side by side: each value comes from its own column", () => {
    const doc = prepareDocument([
      layoutPage(
        [
          "Port of Loading                  Port of Discharge               Place of Delivery",
          " HO CHI MINH CITY                 KHALIFA BIN SALMAN              KHALIFA CY",
        ].join("\n"),
      ),
    ]);
    expect(textOf(doc, ["port_of_loading"])).toBe("HO CHI MINH CITY");
    expect(textOf(doc, ["port_of_discharge"])).toBe("KHALIFA BIN SALMAN");
    expect(textOf(doc, ["place_of_delivery"])).toBe("KHALIFA CY");
  });

  test("one-word labels need a colon or a line of their own", () => {
    const doc = prepareDocument([layoutPage("GOODS ARE OF KOREAN ORIGIN\nGoods: RICE")]);
    expect(textOf(doc, ["description"])).toBe("RICE");
  });

  test("a label followed by a parenthetical note and a slash-joined synonym", () => {
    const doc = prepareDocument([layoutPage("Consignee (or order)\n TO ORDER\nBuyer / Bill to\n ACME LTD")]);
    expect(textOf(doc, ["consignee"])).toBe("TO ORDER");
    expect(textOf(doc, ["buyer"])).toBe("ACME LTD");
  });
});

describe("party blocks", () => {
  test("name on the first line, address after it", () => {
    const doc = prepareDocument([
      layoutPage("Shipper / Exporter\n MEKONG FOODS JSC\n LOT C4, EXPORT ZONE\n VIETNAM\n\nConsignee\n TO THE ORDER OF\n FIRST BANK"),
    ]);
    expect(readParty(doc, ["shipper"])).toMatchObject({ name: "MEKONG FOODS JSC", address: "LOT C4, EXPORT ZONE VIETNAM" });
    expect(readParty(doc, ["consignee"])?.name).toBe("TO THE ORDER OF FIRST BANK");
  });

  test("a typed party on one line splits after the legal form", () => {
    const doc = prepareDocument([
      layoutPage("SHIPPER:        PRAIRIE GROWERS INC., 4410 RAILWAY AVENUE,\n                CANADA\nCONSIGNEE:      GULF TRADING W.L.L."),
    ]);
    expect(readParty(doc, ["shipper"])).toMatchObject({ name: "PRAIRIE GROWERS INC.", address: "4410 RAILWAY AVENUE, CANADA" });
    expect(readParty(doc, ["consignee"])?.name).toBe("GULF TRADING W.L.L.");
  });
});

describe("tables", () => {
  test("rows read by column, wrapped descriptions joined, totals kept", () => {
    const doc = prepareDocument([
      layoutPage(
        [
          "Description of Goods          Quantity   Unit    Unit Price      Amount",
          "BLACK PEPPER WHOLE,             24.000   MT        3,822.00   91,728.00",
          "  GRADE MG1",
          "WHITE PEPPER                    10.000   MT        5,000.00   50,000.00",
          "TOTAL                           34.000                       141,728.00",
        ].join("\n"),
      ),
    ]);
    const table = readTable(doc, ["description"], 0.8)!;
    expect(table.items.map((i) => i.description?.text)).toEqual(["BLACK PEPPER WHOLE, GRADE MG1", "WHITE PEPPER"]);
    expect(table.items.map((i) => i.amount?.text)).toEqual(["91,728.00", "50,000.00"]);
    expect(table.items[0]!.unit?.text).toBe("MT");
    expect(table.totals?.amount?.text).toBe("141,728.00");
  });

  test("no header, no table", () => {
    expect(readTable(prepareDocument([layoutPage("Invoice No: 1\nAmount: 5")]), [], 0.8)).toBeUndefined();
  });
});

describe("MT700 tags", () => {
  test("raw tags, values over several lines, items split", () => {
    const doc = prepareDocument([
      layoutPage(":20:LC123\n:50:ACME LTD\nMAIN ROAD 1\n:46A:+SIGNED INVOICE\n+PACKING LIST\nIN 3 COPIES\n:47A:1. ALL DOCUMENTS IN ENGLISH"),
    ]);
    const tags = parseTags(doc);
    expect(tagValue(tags.get("20"))?.text).toBe("LC123");
    expect(tagValue(tags.get("50"))?.text).toBe("ACME LTD MAIN ROAD 1");
    expect(splitItems(tags.get("46A")).map((i) => i.text)).toEqual(["+SIGNED INVOICE", "+PACKING LIST IN 3 COPIES"]);
  });

  test("tags as scans misread them: opening colon as 1, closing colon as a semicolon, a speck after it", () => {
    const doc = prepareDocument([layoutPage("120: LC123\n:39A:. 05/05\n242C; SIGHT\n159: ACME LTD")]);
    const tags = parseTags(doc);
    expect(tagValue(tags.get("20"))?.text).toBe("LC123");
    expect(tagValue(tags.get("39A"))?.text).toBe("05/05");
    expect(tagValue(tags.get("42C"))?.text).toBe("SIGHT");
    expect(tagValue(tags.get("59"))?.text).toBe("ACME LTD");
  });

  test("printout form: title after the tag, value indented below, even across pages", () => {
    const doc = prepareDocument(
      layoutPages(
        "PRINTOUT Page 1\n40A: Form of Documentary\nCredit\n       IRREVOCABLE\n45A: Description of Goods\n       RICE",
        "PRINTOUT Page 2\n       IN BAGS\n44E: Port of Loading\n       HAIPHONG",
      ),
    );
    const tags = parseTags(doc);
    expect(tagValue(tags.get("40A"))?.text).toBe("IRREVOCABLE");
    expect(tagValue(tags.get("45A"))?.text).toBe("RICE IN BAGS");
    expect(tagValue(tags.get("44E"))?.text).toBe("HAIPHONG");
  });

  test("a printout title naming another field wins over a mislabelled tag", () => {
    const doc = prepareDocument([layoutPage(":44A: Port of Loading\n        YOKOHAMA")]);
    expect(tagValue(parseTags(doc).get("44E"))?.text).toBe("YOKOHAMA");
  });
});
