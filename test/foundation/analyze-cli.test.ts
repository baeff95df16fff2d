import { spawnSync } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { PDFDocument, StandardFonts } from "pdf-lib";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { analyzeDocument } from "@/lib/analysis";

const ROOT = resolve(import.meta.dirname, "../..");
const TSX = join(ROOT, "node_modules/.bin/tsx");
const CLI = join(ROOT, "scripts/analyze.ts");

function runCli(args: string[]) {
  return spawnSync(TSX, [CLI, ...args], { cwd: ROOT, encoding: "utf8", timeout: 110_000 });
}

async function makePdf(lines: string[]): Promise<Uint8Array> {
  const doc = await PDFDocument.create();
  const font = await doc.embedFont(StandardFonts.Helvetica);
  const page = doc.addPage([595, 842]);
  lines.forEach((text, i) => page.drawText(text, { x: 40, y: 800 - i * 16, size: i === 0 ? 18 : 10, font }));
  return doc.save();
}

let dir: string;
let invoicePath: string;
let invoiceBytes: Uint8Array;
beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), "analyze-cli-"));
  invoiceBytes = await makePdf(["COMMERCIAL INVOICE", "Invoice No.: INV-0042", "Unit Price USD 10.00 Amount USD 100.00"]);
  invoicePath = join(dir, "invoice.pdf");
  writeFileSync(invoicePath, invoiceBytes);
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe("analyze CLI", { timeout: 120_000 }, () => {
  it("prints exactly what analyzeDocument returns, as 2-space JSON, for one file", async () => {
    const run = runCli([invoicePath]);
    expect(run.status).toBe(0);
    expect(run.stdout).toBe(`${JSON.stringify(await analyzeDocument(invoiceBytes), null, 2)}\n`);
  });

  it("adds evidence with --evidence", async () => {
    const run = runCli(["--evidence", invoicePath]);
    expect(run.status).toBe(0);
    expect(JSON.parse(run.stdout)).toEqual(await analyzeDocument(invoiceBytes, { evidence: true }));
  });

  it("writes DIR/<file name>.json per file with --out, reports a bad file on stderr, exits 1 and still does the others", async () => {
    const bad = join(dir, "broken.pdf");
    writeFileSync(bad, "%PDF-1.7\n\u0000garbage\n%%EOF");
    const out = join(dir, "out");
    const run = runCli(["--out", out, bad, invoicePath]);
    expect(run.status).toBe(1);
    expect(run.stderr).toContain("broken.pdf");
    expect(run.stderr).toContain("unreadable");
    expect(JSON.parse(readFileSync(join(out, "invoice.pdf.json"), "utf8"))).toEqual(await analyzeDocument(invoiceBytes));
  });

  it("names a missing file on stderr and exits 1", () => {
    const run = runCli([join(dir, "missing.pdf")]);
    expect(run.status).toBe(1);
    expect(run.stderr).toContain("missing.pdf");
    expect(run.stdout).toBe("");
  });
});
