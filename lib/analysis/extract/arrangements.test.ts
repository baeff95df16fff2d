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

  test("abbreviated labels with a full stop before the colon, and an unknown title that is no value", () => {
    const values = invoice(
      "                    L/C No.:                                      NAMLC235447745",
      "                    Contract Ref.:                                 TGM/SC/23/424",
      "                    Trade Terms:                                        CIF RIGA",
      "                    Shipping Point:                                     ADELAIDE",
    );
    expect(values).toMatchObject({ lc_number: "NAMLC235447745", contract_number: "TGM/SC/23/424", incoterms: "CIF RIGA" });
  });

  test("a list of labels without colons, each value flush against the right edge", () => {
    const values = extractFields("bill_of_lading", [
      layoutPage(
        [
          ["B/L No.", "AUEX994079196"],
          ["Ocean Vessel / Voyage", "MV CORAL HARMONY / 246S"],
          ["Discharging Port", "CASABLANCA"],
        ]
          .map(([label, value]) => `              ${label!.padEnd(30)}${value!.padStart(50)}`)
          .join("\n"),
      ),
    ]).values;
    expect(values).toMatchObject({ bl_number: "AUEX994079196", vessel: "MV CORAL HARMONY", voyage: "246S" });
  });

  test("a party block set flush right at the page edge keeps every line of its address", () => {
    const values = extractFields("certificate_of_origin", [
      layoutPage(
        [
          "Name and address of exporter:                            HANSEATIC KAFFEE KONTOR GMBH",
          "                                                                     AM SANDTORKAI 48",
          "                                                                        20457 HAMBURG",
          "                                                                              GERMANY",
          "Consignee:                                          TO THE ORDER OF ARABIAN CAPITAL BANK",
        ].join("\n"),
      ),
    ]).values;
    expect(values).toMatchObject({ exporter: "HANSEATIC KAFFEE KONTOR GMBH", exporter_address: "AM SANDTORKAI 48 20457 HAMBURG GERMANY" });
  });

  test("a party block set flush right keeps an address line longer than its name, which starts left of the name", () => {
    const values = extractFields("phytosanitary_certificate", [
      layoutPage(
        [
          "                    Shipper / Exporter:                     ANATOLIA PULSES TRADING A.S.",
          "                                                  ORGANIZE SANAYI BOLGESI 14. CADDE NO 7",
          "                                                                             KONYA 42300",
          "                                                                                  TURKEY",
          "                    Ship to:                                     JAVA SEA COMMODITIES PT",
        ].join("\n"),
      ),
    ]).values;
    expect(values).toMatchObject({ exporter: "ANATOLIA PULSES TRADING A.S.", exporter_address: "ORGANIZE SANAYI BOLGESI 14. CADDE NO 7 KONYA 42300 TURKEY" });
  });

  test("a lone caption without a colon is not paired with a far line on its row", () => {
    const values = extractFields("contract", [layoutPage(["Seller                                                     ACCEPTED BY THE BUYER"].join("\n"))]).values;
    expect(values.seller).toBeUndefined();
  });

  test("ports titled by the port's kind first ('Discharging Port', 'Load Port') in a grid of box titles", () => {
    const values = extractFields("bill_of_lading", [
      layoutPage(["CONSIGNOR                CONSIGNEE                      DISCHARGING PORT", "ODESA AGRO LLC           TO ORDER OF ARABIAN BANK       APAPA", "", "Load Port:  IZMAIL"].join("\n")),
    ]).values;
    expect(values).toMatchObject({ consignee: "TO ORDER OF ARABIAN BANK", port_of_discharge: "APAPA", port_of_loading: "IZMAIL" });
  });

  test("a plural title reads as its singular ('No. of Original B/Ls'), and 'Originals Issued' names the originals", () => {
    const bl = (...rows: string[]) => extractFields("bill_of_lading", [layoutPage(rows.join("\n"))]).values;
    expect(bl("Place of Issue                   No. of Original B/Ls", "PARANAGUA, May 21, 2023         THREE (3)").number_of_originals).toBe(3);
    expect(bl("Originals Issued", "TWO (2)").number_of_originals).toBe(2);
  });

  test("a box title with its value below is not paired with a far heading on its row", () => {
    const values = extractFields("bill_of_lading", [
      layoutPage(["Shipper:                                                       BILL OF LADING", " ACME TRADING LTD", " 12 HARBOUR ROAD, SINGAPORE"].join("\n")),
    ]).values;
    expect(values.shipper).toBe("ACME TRADING LTD");
  });
});

describe("totals and sums", () => {
  test("a TOTAL row with the currency in its own column; quantity summed over rows of one unit", () => {
    const values = invoice(
      "Item  Description of Goods          Qty      Unit    Unit Price   Cur.      Amount",
      "1     ROBUSTA COFFEE               26,000    KG          3.97     USD   103,220.00",
      "2     ARABICA COFFEE               10,000    KG          5.00     USD    50,000.00",
      "                                                         TOTAL     USD   153,220.00",
    );
    expect(values).toMatchObject({ total_amount: 153220, currency: "USD", quantity: 36000, quantity_unit: "KG" });
    expect(values.line_items).toEqual([
      { description: "ROBUSTA COFFEE", quantity: 26000, unit: "KG", unit_price: 3.97, amount: 103220 },
      { description: "ARABICA COFFEE", quantity: 10000, unit: "KG", unit_price: 5, amount: 50000 },
    ]);
  });

  test("a column titled Total holds the amounts, not the unit prices", () => {
    const values = invoice(
      "Description                     Quantity       Unit Price            Total",
      "COTTON YARN 30S                 1,000 KG         4.50 USD     4,500.00 USD",
      "COTTON YARN 40S                 2,000 KG         5.00 USD    10,000.00 USD",
    );
    expect(values.line_items).toEqual([
      { description: "COTTON YARN 30S", quantity: 1000, unit: "KG", unit_price: 4.5, amount: 4500 },
      { description: "COTTON YARN 40S", quantity: 2000, unit: "KG", unit_price: 5, amount: 10000 },
    ]);
    expect(values).toMatchObject({ total_amount: 14500, quantity: 3000 });
  });

  test("the unit stated in a column title, an H.S. column and a running number before each description", () => {
    const values = invoice(
      "No. Description of Goods          H.S.       U/Price     Quantity (MT)     Line Total",
      "1 GREEN ARABICA COFFEE, NY 2/3    0901.11    5,495.00           46.000     252,770.00",
      "2 GREEN ARABICA COFFEE, SC 17     0901.11    6,316.00           18.000     113,688.00",
    );
    expect(values.line_items).toEqual([
      { description: "GREEN ARABICA COFFEE, NY 2/3", quantity: 46, unit: "MT", unit_price: 5495, amount: 252770 },
      { description: "GREEN ARABICA COFFEE, SC 17", quantity: 18, unit: "MT", unit_price: 6316, amount: 113688 },
    ]);
    expect(values).toMatchObject({ quantity: 64, quantity_unit: "MT" });
  });

  test("a labelled goods line names the goods; the single table row keeps its grade in the line item", () => {
    const values = invoice(
      "Product:   GREEN ARABICA COFFEE",
      "",
      "Description of Goods              Quantity (MT)      Unit Price        Amount",
      "GREEN ARABICA COFFEE, NY 2/3             93.012        5,347.00    497,335.16",
    );
    expect(values.description_of_goods).toBe("GREEN ARABICA COFFEE");
    expect((values.line_items as Array<{ description: string }>)[0]!.description).toBe("GREEN ARABICA COFFEE, NY 2/3");
  });

  test("a number of packages opening a description is no running number", () => {
    const values = invoice(
      "Description                       Quantity       Unit Price          Amount",
      "25 BIG BAGS MILLING WHEAT         25,000 KG            0.30        7,500.00",
    );
    expect((values.line_items as Array<{ description: string }>)[0]!.description).toBe("25 BIG BAGS MILLING WHEAT");
  });

  test("a labelled total whose currency and amount sit in separate cells", () => {
    const values = invoice("Invoice No.: A-1", "", "TOTAL AMOUNT          USD          88,400.00");
    expect(values).toMatchObject({ total_amount: 88400, currency: "USD" });
  });

  test("measurement and weights of a container table come from its TOTAL row, not the first container", () => {
    const values = extractFields("packing_list", [
      layoutPage(
        [
          "Packing List No.: PL-7",
          "",
          "Container No.     Packages     Gross Weight (KG)     Measurement (CBM)",
          "CONT-0001          500 BAGS          25,250.000              28.500",
          "CONT-0002          500 BAGS          25,100.000              28.200",
          "TOTAL             1000 BAGS          50,350.000              56.700",
        ].join("\n"),
      ),
    ]).values;
    expect(values).toMatchObject({ measurement_cbm: 56.7, gross_weight_kg: 50350, number_of_packages: 1000 });
  });

  test("a cargo table continued on a second page under a running title, with an unknown 'Lot' column", () => {
    const header = "Container        No. of Bags     Lot     Net Weight (kg)     Gross kg";
    const values = extractFields("packing_list", [
      layoutPage(["Packing Specification No.     Issue Date     Invoice No.", "PL-23-7916                    2 May 2023     HKK-23-2023", "", header, "TRCU 9637921          480       1           24,000.00    24,100.00", "                      480       2           24,000.00    24,100.00"].join("\n"), 1),
      layoutPage(["PACKING LIST (continued)", header, "                      480       3           24,000.00    24,100.00", "TOTAL           1,440 BAGS                  72,000.00    72,300.00"].join("\n"), 2),
    ]).values;
    expect(values).toMatchObject({ number_of_packages: 1440, package_type: "BAGS", net_weight_kg: 72000, gross_weight_kg: 72300 });
  });

  test("a weight certificate's tare in a 'Container Tare' column, under a label whose value sits beside it", () => {
    const values = extractFields("certificate_of_weight", [
      layoutPage(
        [
          "Quantity of Packages:     400 BAGS",
          "",
          "Container             Gross (kg)     Container Tare kg       Net (kg)",
          "PCRU 4214305            24,240.0               2,200.0       24,000.0",
          "TOTAL               24,240.000 KGS       2,200.000 KGS  24,000.000 KGS",
        ].join("\n"),
      ),
    ]).values;
    expect(values).toMatchObject({ number_of_packages: 400, gross_weight_kg: 24240, tare_weight_kg: 2200, net_weight_kg: 24000 });
  });

  test("without a TOTAL row the container rows are summed", () => {
    const values = extractFields("bill_of_lading", [
      layoutPage(
        [
          "B/L No.: BL-1",
          "",
          "Container / Seal        Packages       Gross Weight       Measurement",
          "CONT-0001 / S-11        500 BAGS        25,250 KGS          28.500 CBM",
          "CONT-0002 / S-12        500 BAGS        25,100 KGS          28.200 CBM",
        ].join("\n"),
      ),
    ]).values;
    expect(values).toMatchObject({ measurement_cbm: 56.7, gross_weight_kg: 50350, number_of_packages: 1000 });
  });
});

describe("party and issuer blocks", () => {
  test("a letterhead's logo initials, telephone and e-mail are not the address", () => {
    const values = invoice(
      "GS      GOLDEN SAHEL COMMODITIES SARL",
      "        ZONE INDUSTRIELLE DE VRIDI, ABIDJAN 15, COTE D'IVOIRE",
      "        Tel: +225 21 35 00 00   E-mail: export@goldensahel.ci",
      "",
      "                          COMMERCIAL INVOICE",
      "Invoice No.: GS-1",
    );
    expect(values).toMatchObject({ seller: "GOLDEN SAHEL COMMODITIES SARL", seller_address: "ZONE INDUSTRIELLE DE VRIDI, ABIDJAN 15, COTE D'IVOIRE" });
  });

  test("a letterhead's address runs on past a post code, beside a column of contacts and codes", () => {
    const values = invoice(
      "      MEKONG GREEN FOODS JSC                       Tel: +84 28 3770 1234",
      "MGF   LOT C4, TAN THUAN EXPORT ZONE                E-mail: export@mekong.vn",
      "      DISTRICT 7, HO CHI MINH CITY 700000          EORI MH910697490",
      "      VIETNAM",
      "",
      "                          COMMERCIAL INVOICE",
      "Invoice No.: MGF-1",
    );
    expect(values).toMatchObject({ seller: "MEKONG GREEN FOODS JSC", seller_address: "LOT C4, TAN THUAN EXPORT ZONE DISTRICT 7, HO CHI MINH CITY 700000 VIETNAM" });
  });

  test("a consignee to the order of a bank whose name wraps, under a label whose note wraps too", () => {
    const values = extractFields("certificate_of_origin", [
      layoutPage(["Consignee (name        TO THE ORDER OF GULFSTAR", "and address):           COMMERCIAL BANK P.J.S.C.", "", "Origin:  VIETNAM"].join("\n")),
    ]).values;
    expect(values.consignee).toBe("TO THE ORDER OF GULFSTAR COMMERCIAL BANK P.J.S.C.");
  });

  test("a consignee's address after a one-line order clause stays the address", () => {
    const values = extractFields("bill_of_lading", [layoutPage(["Consignee:", "TO THE ORDER OF NORDIC AMBER BANK AS", "", "Notify Party:", "BALTIC HARVEST IMPORT SIA", "EKSPORTA IELA 6A"].join("\n"))]).values;
    expect(values).toMatchObject({ consignee: "TO THE ORDER OF NORDIC AMBER BANK AS", notify_party: "BALTIC HARVEST IMPORT SIA" });
  });

  test("a labelled party ends before its contacts and before the next block (Messrs.)", () => {
    const values = invoice(
      "Seller:",
      " KERALA HILL SPICES PVT LTD",
      " 14 SPICE MARKET ROAD, KOCHI 682030, INDIA",
      " Phone: +91 484 266 1234",
      " Email: sales@keralahill.in",
      "Messrs. LAGOON FOODS NIGERIA LIMITED",
      " 5 WHARF ROAD, APAPA, LAGOS, NIGERIA",
    );
    expect(values).toMatchObject({
      seller: "KERALA HILL SPICES PVT LTD",
      seller_address: "14 SPICE MARKET ROAD, KOCHI 682030, INDIA",
      buyer: "LAGOON FOODS NIGERIA LIMITED",
      buyer_address: "5 WHARF ROAD, APAPA, LAGOS, NIGERIA",
    });
  });

  test("a party's name wrapped before a short legal form ('SDN' / 'BHD') or before its trading word and form ('TRADING A.S.')", () => {
    const bl = extractFields("bill_of_lading", [layoutPage(["Notify Party", "BLUEWAVE LOGISTICS SDN", "BHD", "LOT 5, JALAN PELABUHAN", "", "Shipper", "ANATOLIA PULSES", "TRADING A.S.", "ORGANIZE SANAYI BOLGESI 14", "KONYA 42300 TURKEY"].join("\n"))]).values;
    expect(bl).toMatchObject({ notify_party: "BLUEWAVE LOGISTICS SDN BHD", shipper: "ANATOLIA PULSES TRADING A.S.", shipper_address: "ORGANIZE SANAYI BOLGESI 14 KONYA 42300 TURKEY" });
  });

  test("a carrier's name wrapped before its legal form is read whole", () => {
    const values = extractFields("bill_of_lading", [
      layoutPage(["B/L No.: OTC-1", "Carrier:", " PACIFIC OCEAN TRANSPORT", " CO., LTD.", "", "Port of Loading: SANTOS"].join("\n")),
    ]).values;
    expect(values.carrier).toBe("PACIFIC OCEAN TRANSPORT CO., LTD.");
  });

  test("an issuer whose name wraps in the signature block is read whole from its letterhead", () => {
    const values = extractFields("phytosanitary_certificate", [
      layoutPage(
        ["DIRECTION DE LA PROTECTION DES VEGETAUX", "ABIDJAN", "", "PHYTOSANITARY CERTIFICATE", "", "Exporter:  GOLDEN SAHEL SARL", "", "                                   For and on behalf of DIRECTION DE LA", "                                   PROTECTION DES VEGETAUX"].join("\n"),
      ),
    ]).values;
    expect(values.issuing_authority).toBe("DIRECTION DE LA PROTECTION DES VEGETAUX");
  });

  test("a phytosanitary certificate's issuing authority is the organisation, not its country", () => {
    const values = extractFields("phytosanitary_certificate", [
      layoutPage(
        [
          "MINISTRY OF AGRICULTURE, LIVESTOCK AND FOOD SUPPLY",
          "              PHYTOSANITARY CERTIFICATE",
          "Plant Protection Organization of: BRAZIL",
          "No.: BR-2211",
          "Name and address of exporter:",
          " CERRADO GRAOS LTDA",
        ].join("\n"),
      ),
    ]).values;
    expect(values.issuing_authority).toBe("MINISTRY OF AGRICULTURE, LIVESTOCK AND FOOD SUPPLY");
  });
});

describe("tables with specification columns", () => {
  const quality = (...rows: string[]) => extractFields("certificate_of_quality", [layoutPage(rows.join("\n"))]).values.quality_parameters;

  test("Parameter | Specification (Max/Min/Typical) | Result: the result is the value", () => {
    expect(
      quality(
        "Parameter                  Specification (Max/Min/Typical)     Result",
        "Moisture Content           Max 14.0 %                          12.5 %",
        "Oil Content                Min 48.0 %                          50.2 %",
        "Free Fatty Acid            Typical 1.5 %                        1.1 %",
      ),
    ).toEqual([
      { name: "Moisture Content", value: 12.5, unit: "%" },
      { name: "Oil Content", value: 50.2, unit: "%" },
      { name: "Free Fatty Acid", value: 1.1, unit: "%" },
    ]);
  });

  test("a qualifier column beside the specification, and a parameter named Total", () => {
    expect(
      quality(
        "Test Item              Unit     Max/Min    Specification    Result",
        "Moisture Content        %        Max         14.0            12.5",
        "Total Ash Content       %        Max          2.0             1.4",
        "Protein                 %        Min         38.0            41.3",
      ),
    ).toEqual([
      { name: "Moisture Content", value: 12.5, unit: "%" },
      { name: "Total Ash Content", value: 1.4, unit: "%" },
      { name: "Protein", value: 41.3, unit: "%" },
    ]);
  });

  test("a long parameter name reaching under the next title stays whole", () => {
    expect(
      quality(
        "Parameter               Unit    Specification (Max/Min)   Result",
        "Free Fatty Acid Content  %  Max 1.5                        1.1",
        "Moisture                 %  Max 14.0                       12.5",
      ),
    ).toEqual([
      { name: "Free Fatty Acid Content", value: 1.1, unit: "%" },
      { name: "Moisture", value: 12.5, unit: "%" },
    ]);
  });
});

describe("covering schedules", () => {
  test("the enclosed documents are the rows of a Document | Originals | Copies table", () => {
    const values = extractFields("document_instruction", [
      layoutPage(
        [
          "LC No.           CRULC258831570",
          "",
          "Description of Document                                   Originals      Copy",
          "DRAFT AT SIGHT                                                    2         0",
          "COMMERCIAL INVOICE NO. OBS-25-7631                                3         0",
          "BILL OF LADING NO. MOLU107897672                                  2         3",
          "",
          "Please examine the enclosed documents presented under the above documentary credit.",
        ].join("\n"),
      ),
    ]).values;
    expect(values.documents_required).toEqual(["DRAFT AT SIGHT", "COMMERCIAL INVOICE NO. OBS-25-7631", "BILL OF LADING NO. MOLU107897672"]);
  });
});
