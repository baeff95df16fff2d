import { describe, expect, it } from "vitest";
import { analyzePages } from "../pipeline";
import { testPage, testPages } from "./test-page";

/** The document type of each split, in order. */
function typesOf(...pages: ReadonlyArray<readonly string[]>): string[] {
  return analyzePages(testPages(...pages)).map((r) => r.split.document_type);
}

const PAGES: Record<string, readonly string[]> = {
  "Bill of Lading": [
    "OCEANIC LINES LTD",
    "# BILL OF LADING",
    "Shipper | B/L No.: OLL2231904",
    "ACME EXPORTS LTD | Booking No.: 2231904",
    "Consignee: TO ORDER OF FIRST BANK",
    "Notify Party: BUYER TRADING LLC",
    "Vessel: MV NORTHERN STAR | Port of Loading: HAMBURG",
    "Port of Discharge: JEBEL ALI | Freight Prepaid",
    "Particulars furnished by shipper: 20 PALLETS SAID TO CONTAIN MACHINE PARTS",
    "SHIPPED ON BOARD 12 MARCH 2024",
    "Number of original B/Ls: THREE (3)",
    "Signed as agent for the carrier OCEANIC LINES LTD",
  ],
  "Letter of Credit": [
    "Message Type: MT700 Issue of a Documentary Credit",
    ":27: Sequence of Total 1/1",
    ":40A: Form of Documentary Credit IRREVOCABLE",
    ":20: Documentary Credit Number LC2024001",
    ":31C: Date of Issue 240105",
    ":40E: Applicable Rules UCP LATEST VERSION",
    ":31D: Date and Place of Expiry 240430 GERMANY",
    ":50: Applicant BUYER TRADING LLC",
    ":59: Beneficiary ACME EXPORTS LTD",
    ":32B: Currency Code, Amount USD 100000,00",
  ],
  "Document Instruction": [
    "ACME EXPORTS LTD",
    "To: FIRST BANK, TRADE FINANCE",
    "Re: documents presented under L/C No. LC2024001",
    "Dear Sirs, we enclose herewith the following documents:",
    "1. COMMERCIAL INVOICE IN 3 ORIGINALS",
    "2. FULL SET OF BILLS OF LADING",
    "3. PACKING LIST IN 2 COPIES",
    "4. CERTIFICATE OF ORIGIN",
    "5. PHYTOSANITARY CERTIFICATE",
    "Please remit the proceeds to our account.",
  ],
  Contract: [
    "# SALES CONTRACT",
    "Contract No.: SC-2024-17 | Date: 2 January 2024",
    "The Seller: ACME EXPORTS LTD, hereinafter called the Seller",
    "The Buyer: BUYER TRADING LLC, hereinafter called the Buyer",
    "The Buyer and the Seller have agreed to the following terms and conditions:",
    "Commodity: MACHINE PARTS, quantity 20 pallets, 5 pct more or less at seller's option",
    "Time of shipment: not later than 31 March 2024",
    "Terms of payment: irrevocable L/C at sight",
    "Force majeure and arbitration as per ICC rules",
  ],
  "Commercial Invoice": [
    "ACME EXPORTS LTD",
    "# COMMERCIAL INVOICE",
    "Invoice No.: INV-0042 | Invoice Date: 10 March 2024",
    "Sold to: BUYER TRADING LLC",
    "Description | Quantity | Unit Price | Amount",
    "MACHINE PARTS | 20 | USD 5,000.00 | USD 100,000.00",
    "TOTAL AMOUNT USD 100,000.00",
    "B/L No. OLL2231904, L/C No. LC2024001",
  ],
  "Packing List": [
    "ACME EXPORTS LTD",
    "# PACKING LIST",
    "Packing List No.: PL-0042 | Invoice No.: INV-0042",
    "Package No. | Description | Net Weight | Gross Weight",
    "1-20 | MACHINE PARTS | 18,000 KGS | 19,200 KGS",
    "Total packages: 20 pallets, measurement 44.5 CBM",
  ],
  "Certificate of Origin": [
    "# CERTIFICATE OF ORIGIN",
    "Consignor: ACME EXPORTS LTD | Certificate No. CO-778812",
    "Consignee: BUYER TRADING LLC",
    "Country of origin: GERMANY",
    "The undersigned authority certifies that the goods described above originate in GERMANY",
    "HAMBURG CHAMBER OF COMMERCE",
  ],
  "Certificate of Weight": [
    "NORD SURVEY GMBH",
    "# CERTIFICATE OF WEIGHT",
    "Certificate No. W-5521",
    "We hereby certify that the goods were weighed at the weighbridge:",
    "Gross weight 19,200 KGS, tare 1,200 KGS, net weight 18,000 KGS",
  ],
  "Certificate of Quality": [
    "NORD LABORATORY GMBH",
    "# CERTIFICATE OF ANALYSIS",
    "Certificate No. Q-1182",
    "Parameter | Result",
    "Moisture | 11.2 %",
    "Purity | 99.1 %",
    "Test method ISO 712; the sample conforms to the contract specification",
  ],
  "Phytosanitary Certificate": [
    "# PHYTOSANITARY CERTIFICATE",
    "No. DE-PC-44120",
    "Plant Protection Organization of Germany",
    "To: Plant Protection Organization(s) of United Arab Emirates",
    "Botanical name of plants: Coffea arabica",
    "This is to certify that the plants, plant products or other regulated articles described herein",
    "are considered to be free from the quarantine pests specified by the importing contracting party",
  ],
  "Fumigation Certificate": [
    "PESTCO FUMIGATION SERVICES",
    "# FUMIGATION CERTIFICATE",
    "Certificate No. F-3391",
    "Fumigant: METHYL BROMIDE | Dosage rate: 48 g/m3",
    "Exposure period: 24 hours | Temperature: 21 C",
    "Date of fumigation: 8 March 2024, place of fumigation: HAMBURG",
  ],
};

describe("classifying pages", () => {
  for (const [label, lines] of Object.entries(PAGES)) {
    it(`reads a ${label} page as ${label}`, () => {
      expect(typesOf(lines)).toEqual([label]);
    });
  }

  it("reads a covering letter that names every other document as a Document Instruction", () => {
    expect(typesOf(PAGES["Document Instruction"]!)).toEqual(["Document Instruction"]);
  });

  it("reads a bank covering schedule with its title as a Document Instruction", () => {
    const page = [
      "FIRST BANK AG",
      "# COVERING SCHEDULE",
      "Our ref: 200-77812 | Draft No: CB-1192",
      "We enclose herewith the undermentioned documents for your payment under the credit indicated below.",
      "DRAFT | COM. INV | B/L | P/L | CERT. ORIG | INSURANCE",
      "We certify that the terms and conditions of the credit have been duly complied with.",
    ];
    expect(typesOf(page)).toEqual(["Document Instruction"]);
  });

  it("keeps an MT700 whose 46A lists invoice, B/L and certificates a Letter of Credit", () => {
    const page = [
      ":46A: Documents Required",
      "+SIGNED COMMERCIAL INVOICE IN 3 ORIGINALS",
      "+FULL SET OF CLEAN ON BOARD OCEAN BILLS OF LADING",
      "+PACKING LIST IN 3 ORIGINALS",
      "+CERTIFICATE OF ORIGIN ISSUED BY A CHAMBER OF COMMERCE",
      "+PHYTOSANITARY CERTIFICATE",
      ":47A: Additional Conditions",
      "+ALL DOCUMENTS MUST SHOW THE CREDIT NUMBER",
      ":48: Period for Presentation 21 DAYS",
      ":49: Confirmation Instructions WITHOUT",
    ];
    expect(typesOf(page)).toEqual(["Letter of Credit"]);
  });

  it("reads a bill of exchange as Other even though it names the credit and the invoice", () => {
    const page = [
      "# BILL OF EXCHANGE",
      "Exchange for USD 100,000.00 | Hamburg, 15 March 2024",
      "At sight of this first of exchange (second of the same tenor and date being unpaid)",
      "pay to the order of FIRST BANK AG the sum of US dollars one hundred thousand",
      "for value received, drawn under L/C No. LC2024001 as per invoice No. INV-0042",
    ];
    expect(typesOf(page)).toEqual(["Other"]);
  });

  it("reads an insurance certificate as Other though it quotes the B/L and invoice numbers", () => {
    const page = [
      "# MARINE INSURANCE CERTIFICATE",
      "Policy No. P-1120 | Sum insured USD 110,000.00",
      "Assured: ACME EXPORTS LTD",
      "Conveyance: MV NORTHERN STAR, B/L No. OLL2231904, invoice No. INV-0042",
      "Institute Cargo Clauses (A); claims payable at DUBAI",
    ];
    expect(typesOf(page)).toEqual(["Other"]);
  });

  it("does not let a body mention of another type flip the page: titles dominate", () => {
    const page = [
      "# PACKING LIST",
      "As per commercial invoice No. INV-0042 and bill of lading No. OLL2231904",
      "Carton No. | Net Weight | Gross Weight",
    ];
    expect(typesOf(page)).toEqual(["Packing List"]);
  });

  it("keeps a B/L's reverse side of small-print terms with its B/L", () => {
    const terms = Array.from({ length: 60 }, (_, i) =>
      `~ ${i + 1}. The Carrier shall not be liable for loss or damage; the Merchant shall indemnify the Carrier under the Hague-Visby Rules.`,
    );
    const result = analyzePages(testPages(PAGES["Bill of Lading"]!, terms));
    expect(result.map((r) => [r.split.document_type, r.split.pages])).toEqual([["Bill of Lading", [1, 2]]]);
  });

  it("does not take a type named as a field's value for a title", () => {
    const page = [
      "MARINI S.P.A.",
      "Invoice No.: 2022002280 | Customer no.: 82103100",
      "Terms of payment: Letter of Credit",
      "Transport document no: Bill of Lading CPDUB09136",
      "Item | Qty | Price per unit | Total price",
      "SPARE PARTS | 1 PC | 1.883,84 | EUR 1.883,84",
    ];
    expect(typesOf(page)).toEqual(["Commercial Invoice"]);
  });

  it("reads a printed e-mail (a shipment advice to the insurer) as Other", () => {
    const page = [
      "From: | Shipping Dept, ACME EXPORTS LTD",
      "Sent: | Thursday 21 April 2022 10:58",
      "To: | claims@insurer.example",
      "Subject: | POLICY NO. P/101/2022/00005",
      "Dear Sirs, please note the following shipping details:",
      "Port of loading: HAMBURG | Port of discharge: JEBEL ALI",
      "Transport document no: BILL OF LADING CPDUB09136",
    ];
    expect(typesOf(page)).toEqual(["Other"]);
  });

  it("takes a large PURCHASE ORDER heading for a contract but not the purchase-order field of an invoice", () => {
    expect(typesOf(["# PURCHASE ORDER", "PO No. 4500123 | Date: 2 January 2024", "The Buyer: BUYER TRADING LLC", "The Seller: ACME EXPORTS LTD"])).toEqual(["Contract"]);
    const invoice = ["ACME EXPORTS LTD", "Purchase order ECC - 2552", "Invoice No.: 2022002280", "Item | Qty | Price per unit | Total price"];
    expect(typesOf(invoice)).toEqual(["Commercial Invoice"]);
  });

  it("reads a buyer's documentary instructions, whose requirement lines name other documents, as a Document Instruction", () => {
    const page = [
      "BUYER TRADING LLC",
      "# INSTRUCTIONS FOR DOCUMENTS",
      "Please prepare the following documents for shipment under contract SC-17:",
      "Commercial invoice in 3 originals",
      "Full set of clean on board bills of lading made out to order",
      "Packing list showing net and gross weights",
      "Marks and numbers: BTL/SC-17/1-20",
    ];
    expect(typesOf(page)).toEqual(["Document Instruction"]);
  });

  it("reads a heading that names the type in another word order as its title", () => {
    const page = ["PESTCO SERVICES", "# TREATMENT CERTIFICATE - FUMIGATION", "Certificate No.: F-3391", "Goods: SESAME SEEDS, 1,840 BAGS"];
    expect(typesOf(page)).toEqual(["Fumigation Certificate"]);
  });

  it("reads a bilingual title printed only in Spanish", () => {
    const page = ["# FACTURA COMERCIAL", "No.: FC-2024-118 | Fecha: 10/03/2024", "Description | Unit Price | Amount", "COFFEE BEANS | USD 4.10 | USD 82,000.00"];
    expect(typesOf(page)).toEqual(["Commercial Invoice"]);
  });

  it("reads a courier's air waybill receipt as Other", () => {
    const page = ["# EXPRESS COURIER - AIR WAYBILL / SENDER'S RECEIPT", "Waybill No: 3109994732", "From: ACME EXPORTS LTD", "To: FIRST BANK AG"];
    expect(typesOf(page)).toEqual(["Other"]);
  });

  it("makes a page with no text at all between documents an Other of its own", () => {
    const blank = testPage(2, []);
    const pages = [testPage(1, PAGES["Commercial Invoice"]!), blank, testPage(3, PAGES["Packing List"]!)];
    expect(analyzePages(pages).map((r) => [r.split.document_type, r.split.pages])).toEqual([
      ["Commercial Invoice", [1]],
      ["Other", [2]],
      ["Packing List", [3]],
    ]);
  });

  it("makes a run of blank sheets one Other", () => {
    const pages = [testPage(1, PAGES["Commercial Invoice"]!), testPage(2, []), testPage(3, []), testPage(4, PAGES["Packing List"]!)];
    expect(analyzePages(pages).map((r) => [r.split.document_type, r.split.pages])).toEqual([
      ["Commercial Invoice", [1]],
      ["Other", [2, 3]],
      ["Packing List", [4]],
    ]);
  });

  it("reads a separator sheet between documents as Other", () => {
    const result = analyzePages(testPages(PAGES["Commercial Invoice"]!, ["# COPY DOCUMENTS FOR BANK FILE"], PAGES["Packing List"]!));
    expect(result.map((r) => r.split.document_type)).toEqual(["Commercial Invoice", "Other", "Packing List"]);
  });

  it("reads a presentation schedule whose heading names the credit, listing originals and copies, as a Document Instruction", () => {
    const page = [
      "NORTHERN BANK PLC",
      "# DOCUMENTARY CREDIT PRESENTATION",
      "Credit No.: DC-55120 | Presenter: ACME EXPORTS LTD",
      "Documents | Originals | Copies",
      "Bill of exchange | 2 | 0",
      "Commercial invoice | 3 | 2",
      "Bill of lading | 3 | 3",
      "Packing list | 1 | 2",
      "Certificate of origin | 1 | 1",
    ];
    expect(typesOf(page)).toEqual(["Document Instruction"]);
  });

  it("weighs a list of documents under originals and copies columns as an enclosure schedule, not a credit", () => {
    const page = [
      "NORTHERN BANK PLC",
      "Our ref: DC-55120 | Date: 12 March 2024",
      "Document | Orig. | Copies",
      "Commercial invoice | 3 | 2",
      "Bill of lading | 3 | 3",
      "Packing list | 1 | 2",
      "Certificate of origin | 1 | 1",
      "Insurance certificate | 2 | 0",
    ];
    expect(typesOf(page)).toEqual(["Document Instruction"]);
  });

  it("takes DRAFT stamped on a carrier's draft B/L for its status, not for a bill of exchange", () => {
    const page = ["# DRAFT", ...PAGES["Bill of Lading"]!];
    expect(typesOf(page)).toEqual(["Bill of Lading"]);
  });

  it("reads a carrier's arrival notice as Other though it quotes the B/L and the vessel", () => {
    const page = [
      "OCEANIC LINES LTD",
      "# ARRIVAL NOTICE",
      "B/L No.: OLL2231904 | Vessel: MV NORTHERN STAR",
      "Port of Loading: HAMBURG | Port of Discharge: JEBEL ALI",
      "Notify Party: BUYER TRADING LLC",
      "Estimated time of arrival: 02 April 2024. Free time 7 days, demurrage thereafter.",
    ];
    expect(typesOf(page)).toEqual(["Other"]);
  });

  it("reads an authority's export declaration as Other", () => {
    const page = ["# EXPORT DECLARATION", "Exporter: ACME EXPORTS LTD | Declarant: ACME EXPORTS LTD", "Customs office of export: HAMBURG", "Commodity code 8483.40 | Country of origin: GERMANY"];
    expect(typesOf(page)).toEqual(["Other"]);
  });
});
