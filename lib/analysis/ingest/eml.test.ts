import { execFileSync } from "node:child_process";
import { chmodSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { createCanvas } from "@napi-rs/canvas";
import { describe, expect, it } from "vitest";
import { docx, makeDocx } from "@/test/fixtures/formats/docx-fixtures";
import { makeDeeplyNestedEml, makeEml, makeHiddenManyPartEml, makeManyPartEml, makeSplitBudgetEml } from "@/test/fixtures/formats/eml-fixtures";
import { makeMixedPdf } from "@/test/fixtures/formats/scanned-pdf";
import type { Page } from "../types";
import { ingestEml } from "./eml";
import { scanMimeShape } from "./eml-scan";
import { resolveLimits } from "./limits";
import { sniffFormat } from "./sniff";
import { OCR_TEST_TIMEOUT_MS } from "@/test/fixtures/formats/scan-fixtures";

const encode = (text: string) => new TextEncoder().encode(text);
const firstLine = (page: Page) => page.lines[0]?.text ?? "";
const allText = (page: Page) => page.lines.map((l) => l.text).join("\n");

describe("ingestEml", () => {
  it("numbers pages across the body, a PDF attachment and an attached message with its own attachment", async () => {
    const invoice = ["COMMERCIAL INVOICE", "Invoice No: INV-5512", "Seller: Aldgate Textile Mills Ltd, Karachi"];
    const packingList = ["PACKING LIST", "Packing List No: PL-5512", "Cartons: 320, Gross Weight: 8,400 KGS"];
    const pdf = await makeMixedPdf([{ digital: invoice }, { digital: packingList }]);
    const forwarded = makeEml({
      subject: "Fwd: B/L",
      body: "Please find the bill of lading attached.",
      attachments: [{ filename: "bl.docx", contentType: "application/octet-stream", data: makeDocx([docx.paragraph("BILL OF LADING"), docx.paragraph("B/L No: MAEU241100")]) }],
    }, "inner");
    const eml = makeEml({
      subject: "Documents under LC58213409",
      body: "Dear Sirs,\nWe present the documents below.",
      attachments: [{ filename: "invoice.pdf", contentType: "application/pdf", data: pdf }, { message: forwarded }],
    });
    expect(sniffFormat(encode(eml))).toBe("eml");

    const pages = await ingestEml(encode(eml));
    expect(pages.map((p) => [p.number, p.source])).toEqual([
      [1, "email"],
      [2, "text-layer"],
      [3, "text-layer"],
      [4, "email"],
      [5, "docx"],
    ]);
    expect(firstLine(pages[0]!)).toBe("Subject: Documents under LC58213409");
    expect(allText(pages[0]!)).toContain("We present the documents below.");
    expect(firstLine(pages[1]!)).toBe("COMMERCIAL INVOICE");
    expect(firstLine(pages[2]!)).toBe("PACKING LIST");
    expect(firstLine(pages[3]!)).toBe("Subject: Fwd: B/L");
    expect(firstLine(pages[4]!)).toBe("BILL OF LADING");
  });

  it("refuses a message of 10,000 parts before parsing it", async () => {
    await expect(ingestEml(encode(makeManyPartEml(10_000)))).rejects.toMatchObject({
      code: "limit_exceeded",
      message: expect.stringContaining("maximum MIME parts"),
    });
  });

  it("refuses messages attached 50 deep", async () => {
    await expect(ingestEml(encode(makeDeeplyNestedEml(50)))).rejects.toMatchObject({
      code: "limit_exceeded",
      message: expect.stringContaining("maximum nesting depth"),
    });
  });

  it.each(["second-content-type", "xboundary", "rfc2231"] as const)(
    "refuses 300 parts whose boundary is hidden from a naive header reader (%s)",
    async (trick) => {
      await expect(ingestEml(encode(makeHiddenManyPartEml(300, trick)))).rejects.toMatchObject({
        code: "limit_exceeded",
        message: expect.stringContaining("maximum MIME parts"),
      });
    },
  );

  it("counts the parts of an attached message against the same budget as its container's", async () => {
    // 120 + 121 parts: each message alone is under the cap of 200, the e-mail is not.
    await expect(ingestEml(encode(makeSplitBudgetEml(120, 120)))).rejects.toMatchObject({
      code: "limit_exceeded",
      message: expect.stringContaining("maximum MIME parts"),
    });
  });

  it("reads messages nested up to the limit and counts their parts", async () => {
    const eml = makeDeeplyNestedEml(3);
    // Each level: the multipart, its text part and the attached message; the innermost message is one part.
    const budget = { parts: 0 };
    await scanMimeShape(Buffer.from(eml), resolveLimits(), budget, 0);
    expect(budget.parts).toBe(3);
    const pages = await ingestEml(encode(eml));
    expect(pages.map(firstLine)).toEqual(["Subject: level 1", "Subject: level 2", "Subject: level 3", "Subject: innermost"]);
  });

  it("reads a file attached many times once: 12 copies of one scan cost one OCR run, and each copy still gives its page", { timeout: OCR_TEST_TIMEOUT_MS }, async () => {
    const canvas = createCanvas(360, 120);
    const ctx = canvas.getContext("2d");
    ctx.fillStyle = "#fff";
    ctx.fillRect(0, 0, 360, 120);
    ctx.fillStyle = "#000";
    ctx.font = "24px sans-serif";
    ctx.fillText("BILL OF LADING", 10, 70);
    const scan = new Uint8Array(await canvas.encode("png"));
    const eml = makeEml({ subject: "Copies", body: "Twelve copies.", attachments: Array.from({ length: 12 }, (_, i) => ({ filename: `scan${i}.png`, contentType: "image/png", data: scan })) });
    // The real tesseract, behind a script on PATH that notes each run.
    const dir = mkdtempSync(path.join(tmpdir(), "shipshape-eml-ocr-"));
    const log = path.join(dir, "runs");
    writeFileSync(log, "");
    writeFileSync(path.join(dir, "tesseract"), `#!/bin/sh\n[ "$2" = stdout ] && echo run >> '${log}'\nexec '${execFileSync("sh", ["-c", "command -v tesseract"], { encoding: "utf8" }).trim()}' "$@"\n`);
    chmodSync(path.join(dir, "tesseract"), 0o755);
    const pathBefore = process.env.PATH;
    process.env.PATH = `${dir}:${pathBefore}`;
    try {
      const pages = await ingestEml(encode(eml));
      expect(pages.map((p) => p.number)).toEqual(Array.from({ length: 13 }, (_, i) => i + 1));
      for (const page of pages.slice(1)) expect(allText(page)).toMatch(/BILL OF LADING/);
      // Each copy is its own object: cleaning one page's lines in place leaves the others alone.
      expect(new Set(pages.slice(1).map((p) => p.lines)).size).toBe(12);
      const runs = readFileSync(log, "utf8").split("\n").filter(Boolean).length;
      const single = await (async () => {
        writeFileSync(log, "");
        await ingestEml(encode(makeEml({ subject: "One", body: "One copy.", attachments: [{ filename: "scan.png", contentType: "image/png", data: scan }] })));
        return readFileSync(log, "utf8").split("\n").filter(Boolean).length;
      })();
      expect(single).toBeGreaterThan(0);
      expect(runs).toBe(single);
    } finally {
      process.env.PATH = pathBefore;
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

