import { describe, expect, it } from "vitest";
import { generatePacket } from "@/test/fixtures/generator";
import { makePdf } from "@/test/support/api-fixtures";
import { AnalysisError } from "../errors";
import { analyzeForExamination, examineFiles } from "./files";

const PRESENTED = ["letter_of_credit", "commercial_invoice", "bill_of_lading", "packing_list"] as const;

describe("examineFiles: PDFs through the analysis engine into the examination", () => {
  it("keeps each split's own page text beside its analysis", async () => {
    const packet = await generatePacket({ seed: 11, types: PRESENTED, shuffle: false });
    const documents = await analyzeForExamination({ name: "set.pdf", bytes: packet.pdf }, "set.pdf");
    expect(documents.map((d) => d.id)).toEqual(documents.map((_, i) => `set.pdf#${i + 1}`));
    const credit = documents.find((d) => d.result.split.document_type === "Letter of Credit");
    const invoice = documents.find((d) => d.result.split.document_type === "Commercial Invoice");
    expect(credit?.text).toMatch(/:20:|CREDIT/i);
    expect(invoice?.text).toMatch(/INVOICE/i);
    expect(invoice?.text).not.toEqual(credit?.text);
  });

  it("examines a generated PDF presentation and returns plain JSON", async () => {
    const packet = await generatePacket({ seed: 11, types: PRESENTED, shuffle: false });
    const result = await examineFiles([{ name: "set.pdf", bytes: packet.pdf }], "2030-01-01");
    expect(result.matrix.columns[0]?.role).toBe("credit");
    // Presented years after expiry: a checker refuses it, and so must we.
    expect(result.findings.map((f) => f.rule)).toContain("presentation.expiry");
    expect(JSON.parse(JSON.stringify(result))).toEqual(result);
  });

  it("finds documents of another shipment presented under the credit", async () => {
    const credit = await generatePacket({ seed: 11, types: ["letter_of_credit"] });
    const documents = await generatePacket({ seed: 12, types: ["commercial_invoice", "bill_of_lading"], shuffle: false });
    const result = await examineFiles(
      [{ name: "credit.pdf", bytes: credit.pdf }, { name: "documents.pdf", bytes: documents.pdf }],
      "2030-01-01",
    );
    const rules = new Set(result.findings.filter((f) => f.severity === "discrepancy").map((f) => f.rule));
    expect(rules.has("invoice.issued_by_beneficiary") || rules.has("consistency.lc_number")).toBe(true);
  });

  it("applies an MT707 uploaded beside the credit: the expiry it extends, the document it adds, named in the findings", async () => {
    const packet = await generatePacket({ seed: 11, types: PRESENTED, shuffle: false });
    const [credit] = (await analyzeForExamination({ name: "set.pdf", bytes: packet.pdf }, "set.pdf")).filter((d) => d.result.split.document_type === "Letter of Credit");
    const amendment = await makePdf([[
      "MT707 AMENDMENT TO A DOCUMENTARY CREDIT", `:20:${String(credit!.result.extracted.lc_number)}`, ":31C:230714", ":26E:01", ":30:230801",
      ":31E:301231", ":46B:/ADD/+HEALTH CERTIFICATE ISSUED BY THE MINISTRY OF HEALTH",
    ]]);
    const result = await examineFiles([{ name: "set.pdf", bytes: packet.pdf }, { name: "amendment.pdf", bytes: amendment }], "2030-01-01");
    expect(result.matrix.columns.find((c) => c.fileName === "amendment.pdf")?.role).toBe("amendment");
    expect(result.findings.map((f) => f.rule)).not.toContain("presentation.expiry");
    expect(result.findings.find((f) => f.rule === "credit.amended")?.message).toMatch(/amendment no\. 1 of 2023-08-01 \(amendment\.pdf#1\) applied \(expiry date, documents required\)/);
    expect(result.findings.find((f) => /HEALTH CERTIFICATE/.test(f.message))?.message).toMatch(/a requirement added by amendment no\. 1/);
  });

  it("names the file that could not be analysed", async () => {
    const packet = await generatePacket({ seed: 11, types: ["commercial_invoice"] });
    const files = [{ name: "good.pdf", bytes: packet.pdf }, { name: "empty.pdf", bytes: new Uint8Array() }];
    await expect(examineFiles(files, "2030-01-01")).rejects.toThrow(AnalysisError);
    await expect(examineFiles(files, "2030-01-01")).rejects.toThrow(/^empty\.pdf: /);
  });
});
