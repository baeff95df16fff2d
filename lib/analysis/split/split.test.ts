import { describe, expect, it } from "vitest";
import { testPages } from "../classify/test-page";
import { analyzePages } from "../pipeline";

function splitsOf(...pages: ReadonlyArray<readonly string[]>): Array<[string, number[]]> {
  return analyzePages(testPages(...pages)).map((r) => [r.split.document_type, r.split.pages]);
}

function invoicePage(number: string, extra: readonly string[] = [], mark?: string): string[] {
  return [
    "ACME EXPORTS LTD",
    `# COMMERCIAL INVOICE${mark ? ` | ${mark}` : ""}`,
    `Invoice No.: ${number} | Date: 10 March 2024`,
    "Description | Unit Price | Amount",
    "MACHINE PARTS | USD 5,000.00 | USD 100,000.00",
    ...extra,
  ];
}

function packingPage(footer: string, rows: number, first = 1): string[] {
  return [
    "ACME EXPORTS LTD",
    "# PACKING LIST",
    "Packing List No.: PL-0042 | Invoice No.: INV-0042",
    "Carton No. | Net Weight | Gross Weight",
    ...Array.from({ length: rows }, (_, i) => `${first + i} | ${900 + first + i} KGS | ${960 + first + i} KGS`),
    footer,
  ];
}

describe("splitting documents", () => {
  it("keeps a three-page packing list numbered Page 1 of 3 .. 3 of 3 as one split", () => {
    expect(splitsOf(packingPage("Page 1 of 3", 20), packingPage("Page 2 of 3", 20, 21), packingPage("Page 3 of 3", 5, 41))).toEqual([
      ["Packing List", [1, 2, 3]],
    ]);
  });

  it("keeps a three-page packing list with the same number on each page and no counter as one split", () => {
    expect(splitsOf(packingPage("", 20), packingPage("", 20, 21), packingPage("", 5, 41))).toEqual([["Packing List", [1, 2, 3]]]);
  });

  it("starts a new document where the page counter restarts", () => {
    const first = invoicePage("INV-0042", ["Page 1 of 2"]);
    const second = ["Invoice INV-0042 (continued)", "SPARE PARTS | USD 10.00 | USD 100.00", "Page 2 of 2"];
    const third = invoicePage("INV-0042", ["Page 1 of 1"]);
    expect(splitsOf(first, second, third)).toEqual([
      ["Commercial Invoice", [1, 2]],
      ["Commercial Invoice", [3]],
    ]);
  });

  it("keeps a continuation page whose counter follows on even when it looks like another type", () => {
    const first = invoicePage("INV-0042", ["Page 1 of 2"]);
    const second = ["Net weight 18,000 KGS | Gross weight 19,200 KGS", "Total packages 20", "Page 2 of 2"];
    expect(splitsOf(first, second)).toEqual([["Commercial Invoice", [1, 2]]]);
  });

  it("splits an original and its copy printed back to back", () => {
    expect(splitsOf(invoicePage("INV-0042", [], "ORIGINAL"), invoicePage("INV-0042", [], "COPY"))).toEqual([
      ["Commercial Invoice", [1]],
      ["Commercial Invoice", [2]],
    ]);
  });

  it("splits an original and its copy even when neither carries a recognisable title", () => {
    const body = ["ACME EXPORTS LTD", "Packages: 20 pallets, net weight 18,000 KGS, gross weight 19,200 KGS", "Carton No. 1-20"];
    expect(splitsOf(["ORIGINAL", ...body], ["COPY NON-NEGOTIABLE", ...body])).toEqual([
      ["Packing List", [1]],
      ["Packing List", [2]],
    ]);
  });

  it("splits two certificates of the same type from different issuers", () => {
    const certificate = (lab: string, moisture: string) => [`# ${lab}`, "# CERTIFICATE OF ANALYSIS", "Parameter | Result", `Moisture | ${moisture} %`];
    expect(splitsOf(certificate("NORD LABORATORY GMBH", "11.2"), certificate("BALTIC CONTROL SURVEYORS", "11.4"))).toEqual([
      ["Certificate of Quality", [1]],
      ["Certificate of Quality", [2]],
    ]);
  });

  it("splits two invoices with different numbers", () => {
    expect(splitsOf(invoicePage("INV-0042"), invoicePage("INV-0043"))).toEqual([
      ["Commercial Invoice", [1]],
      ["Commercial Invoice", [2]],
    ]);
  });

  it("splits two SWIFT credits where the message sequence restarts, and keeps an MT701 with its MT700", () => {
    const mt700 = (seq: string) => [`:27: Sequence of Total ${seq}`, ":40A: IRREVOCABLE", ":20: LC2024001", ":31C: 240105", ":50: BUYER"];
    const mt701 = [":27: Sequence of Total 2/2", ":20: LC2024001", ":45A: MACHINE PARTS", ":46A: COMMERCIAL INVOICE", ":47A: ALL DOCUMENTS IN ENGLISH"];
    expect(splitsOf(mt700("1/2"), mt701, mt700("1/1"))).toEqual([
      ["Letter of Credit", [1, 2]],
      ["Letter of Credit", [3]],
    ]);
  });

  it("starts a document where an untitled page of another kind restarts the counter", () => {
    const origin = ["# CERTIFICATE OF ORIGIN", "Country of origin: GERMANY", "The undersigned authority certifies that the goods originate in GERMANY"];
    const packing = ["ACME EXPORTS LTD", "Carton No. | Net Weight | Gross Weight", "1-20 | 18,000 KGS | 19,200 KGS", "Page 1/2"];
    const packing2 = ["Carton No. | Net Weight | Gross Weight", "21-40 | 18,000 KGS | 19,200 KGS", "Page 2/2"];
    expect(splitsOf(origin, packing, packing2)).toEqual([
      ["Certificate of Origin", [1]],
      ["Packing List", [2, 3]],
    ]);
  });

  it("keeps a rider marked as an attached sheet with its bill of lading", () => {
    const bl = [
      "# BILL OF LADING",
      "B/L No.: OLL2231904 | Booking No.: 2231904",
      "Shipper: ACME EXPORTS LTD | Notify Party: BUYER TRADING LLC",
      "Shipped on board 12 March 2024 | Freight prepaid",
    ];
    const rider = ["ATTACHED SHEET", "Container TGHU1234567 seal 112233 20 pallets", "Container TGHU7654321 seal 445566 20 pallets"];
    expect(splitsOf(bl, rider)).toEqual([["Bill of Lading", [1, 2]]]);
  });

  it("does not take an OCR misreading of the same reference (O for 0, I for 1) for a new document", () => {
    const front = ["# BILL OF LADING", "B/L No.: OOLU2122490880 | Shipper: ACME EXPORTS LTD", "Shipped on board 12 March 2024 | Notify party: BUYER"];
    const sheet = ["B/L No.: 00LU2I22490880", "Container TGHU1234567 seal 112233 20 pallets said to contain machine parts"];
    expect(splitsOf(front, sheet)).toEqual([["Bill of Lading", [1, 2]]]);
  });

  it("keeps a signed B/L's reverse side of terms with it even when the reverse repeats the title", () => {
    const bl = [
      "# BILL OF LADING",
      "B/L No.: OLL2231904 | Shipper: ACME EXPORTS LTD",
      "Shipped on board 12 March 2024 | Freight prepaid",
      "Signed as agent for the carrier OCEANIC LINES LTD",
    ];
    const reverse = ["# BILL OF LADING - TERMS AND CONDITIONS", "~ 1. Definitions. Carrier means the party on whose behalf this Bill of Lading has been signed."];
    expect(splitsOf(bl, reverse)).toEqual([["Bill of Lading", [1, 2]]]);
  });

  it("keeps a reverse side that says nothing of any type (a legalisation stamp) with its certificate", () => {
    const origin = [
      "# CERTIFICATE OF ORIGIN",
      "Certificate No. CO-778812 | Country of origin: GERMANY",
      "The undersigned authority certifies that the goods originate in GERMANY",
    ];
    const reverse = [
      "# LEGALISATION",
      "EMBASSY OF THE UNITED ARAB EMIRATES - CONSULAR SECTION",
      "Seen for legalisation of the signature and stamp of the chamber only; the embassy assumes no responsibility for the contents.",
      "Fees paid: 56.00 | Consular officer",
    ];
    expect(splitsOf(origin, reverse)).toEqual([["Certificate of Origin", [1, 2]]]);
  });

  it("splits at a change of type and puts every page in exactly one split, in order", () => {
    const result = analyzePages(testPages(invoicePage("INV-0042"), packingPage("", 3), invoicePage("INV-0043")));
    expect(result.flatMap((r) => r.split.pages)).toEqual([1, 2, 3]);
    expect(result.map((r) => r.split.document_type)).toEqual(["Commercial Invoice", "Packing List", "Commercial Invoice"]);
  });

  it("splits two certificates of origin, one per lot, though issuer and goods are the same", () => {
    const origin = (lot: string, marks: string) => [
      "CHAMBER OF COMMERCE OF HAMBURG",
      "# CERTIFICATE OF ORIGIN",
      "Exporter: ACME EXPORTS LTD | Consignee: BUYER TRADING LLC",
      `Goods: SESAME SEEDS, ${lot}`,
      `Marks: ${marks}`,
      "The undersigned authority certifies that the goods originate in GERMANY",
    ];
    const first = origin("LOT 1 OF 2, 920 BAGS OF 50 KG NET, 46,000 KGS", "BTL/SC-17/LOT-1 CONTAINERS TGHU1234567 TGHU7654321");
    const second = origin("LOT 2 OF 2, 1,160 BAGS OF 25 KG NET, 29,000 KGS", "BTL/SC-17/LOT-2 CONTAINER MSCU5550001 SHIPPED SEPARATELY");
    expect(splitsOf(first, second)).toEqual([
      ["Certificate of Origin", [1]],
      ["Certificate of Origin", [2]],
    ]);
  });

  it("splits an original two-page B/L from its two-page copy when no ORIGINAL or COPY mark is legible", () => {
    const front = (extra: string) => [
      "# BILL OF LADING",
      "B/L No.: OLL2231904 | Shipper: ACME EXPORTS LTD",
      "Shipped on board 12 March 2024 | Freight prepaid",
      extra,
      ...Array.from({ length: 24 }, (_, i) => `Container TGHU12345${String(i).padStart(2, "0")} | 1 x 20' | said to contain machine parts`),
      "Signed as agent for the carrier OCEANIC LINES LTD",
    ];
    const reverse = ["TERMS AND CONDITIONS OF CARRIAGE", "~ 1. Definitions. Carrier means the party on whose behalf this Bill of Lading has been signed."];
    expect(splitsOf(front("Number of original B/Ls: THREE (3)"), reverse, front("Place of issue: HAMBURG"), reverse)).toEqual([
      ["Bill of Lading", [1, 2]],
      ["Bill of Lading", [3, 4]],
    ]);
  });

  it("splits an untitled two-page B/L from its copy when the scan lost both marks: the copy repeats the first page word for word", () => {
    // A carrier's form headed by its letterhead, no "BILL OF LADING" heading, no signature on the first face.
    const front = [
      "MERIDIAN OCEAN LINES S.A. | AS CARRIER",
      "DOCUMENT NO. MOLU905608698 | BOOKING REF. BKG73479234",
      "Consignor NILE DELTA AGRO EXPORT CO. | Consignee TO THE ORDER OF ARABIAN CAPITAL BANK",
      "Vessel BALTIC JUNIPER | Voyage 194N | Port of loading ALEXANDRIA | Port of discharge TANJUNG PRIOK",
      ...Array.from({ length: 4 }, (_, i) => `MDLU89957${i}6 | 344 BAGS | 23,994.25 KGS | 34.425 CBM | seal YC55426${i}`),
      "Freight prepaid | Number of originals THREE (3)",
    ];
    const second = ["Shipped on board 09 July 2024 at ALEXANDRIA", "Place and date of issue ALEXANDRIA 10 July 2024", "For the carrier MERIDIAN OCEAN LINES S.A."];
    expect(splitsOf(front, second, front, second)).toEqual([
      ["Bill of Lading", [1, 2]],
      ["Bill of Lading", [3, 4]],
    ]);
  });

  it("starts a document at a page headed in display type after a signed-off one, though its title is unknown", () => {
    const rows = Array.from({ length: 22 }, (_, i) => `PART ${i + 1} | USD 10.00 | USD 100.00`);
    const signed = invoicePage("INV-0042", [...rows, "For and on behalf of ACME EXPORTS LTD"]);
    const notice = ["# NOTIFICATION OF READINESS", "Please be informed that the goods described below are ready for collection at our warehouse.", "Reference WH-2291"];
    expect(splitsOf(signed, notice).map(([, pages]) => pages)).toEqual([[1], [2]]);
    // The same words in body type are a continuation of the signed page, as before.
    expect(splitsOf(signed, notice.map((l) => l.replace(/^# /, "")))).toEqual([["Commercial Invoice", [1, 2]]]);
  });

  it("types an untitled two-page document by what its pages read as together, not by its first page alone", () => {
    const first = ["ACME EXPORTS LTD", "12 HARBOUR ROAD, CHITTAGONG", "BUYER TRADING LLC | 10 March 2024", "Contract No.: SC-2024-17",
      "COTTON YARN 30S | 10,000 KGS | USD 2.50 | USD 25,000.00", "COTTON YARN 40S | 8,000 KGS | USD 2.80 | USD 22,400.00"];
    const second = ["COTTON YARN 50S | 5,000 KGS | USD 3.00 | USD 15,000.00", "Total Amount | USD 62,400.00",
      "Amount in words: US DOLLARS SIXTY TWO THOUSAND FOUR HUNDRED ONLY", "Country of origin: BANGLADESH", "We certify that the goods are as invoiced.", "For ACME EXPORTS LTD"];
    expect(splitsOf(first, second)).toEqual([["Commercial Invoice", [1, 2]]]);
  });

  it("does not absorb an untitled courier receipt into the packing list before it", () => {
    const courier = ["DHL EXPRESS", "Waybill 3109994732", "Delivered 16 March 2024"];
    expect(splitsOf(packingPage("", 3), courier)).toEqual([
      ["Packing List", [1]],
      ["Other", [2]],
    ]);
  });

  describe("letters of credit", () => {
    const header = (ref: string) => [
      "24/03/12-09:14:02 | PRINTER-0042",
      "Message Header",
      "Swift Output : FIN 700 Issue of a Documentary Credit",
      ":27: Sequence of Total 1/1",
      ":40A: Form of Documentary Credit IRREVOCABLE",
      `:20: Documentary Credit Number ${ref}`,
      ":31C: Date of Issue 240105",
      ":50: Applicant BUYER TRADING LLC",
    ];
    const middle = ["24/03/12-09:14:02 | PRINTER-0042", ":46A: Documents Required", "+SIGNED COMMERCIAL INVOICE IN 3 ORIGINALS", "+FULL SET OF CLEAN ON BOARD BILLS OF LADING", "+PACKING LIST", "+CERTIFICATE OF ORIGIN"];
    const last = ["# DOCUMENTARY CREDIT", ":47A: Additional Conditions", "+ALL DOCUMENTS MUST SHOW THE CREDIT NUMBER", ":72Z: Sender to Receiver Information", "Message Trailer", "{CHK:48EF3B01CDF4}"];

    it("keeps an advising bank's advice letter and the MT700 it forwards as one credit", () => {
      const advice = [
        "NORTHERN BANK PLC",
        "# ADVICE OF DOCUMENTARY CREDIT",
        "Our ref: ADV-7781 | L/C No.: LC2024001",
        "We have been requested by the issuing bank to advise you of the following documentary credit.",
        "This advice is given without any engagement on our part.",
      ];
      expect(splitsOf(advice, header("LC2024001"), middle, last)).toEqual([["Letter of Credit", [1, 2, 3, 4]]]);
    });

    it("keeps a multi-page MT700 printout whole in a batch of credits and starts each credit at its header", () => {
      expect(splitsOf(header("LC2024001"), middle, last, header("LC2024002"), middle, last)).toEqual([
        ["Letter of Credit", [1, 2, 3]],
        ["Letter of Credit", [4, 5, 6]],
      ]);
    });

    it("does not take the contract after a credit's trailer into the credit", () => {
      const contract = [
        "ACME EXPORTS LTD",
        "Contract No.: SC-2024-17",
        "The Seller: ACME EXPORTS LTD | The Buyer: BUYER TRADING LLC",
        "Payment by irrevocable documentary credit; the beneficiary shall present documents within 21 days.",
        "Partial shipments allowed, transhipment allowed. Force majeure as per ICC rules.",
      ];
      const contract2 = ["Arbitration in London. Governing law: English law.", "For the Seller | For the Buyer"];
      expect(splitsOf(header("LC2024001"), middle, last, contract, contract2)).toEqual([
        ["Letter of Credit", [1, 2, 3]],
        ["Contract", [4, 5]],
      ]);
    });
  });
});
