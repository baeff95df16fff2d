/**
 * Fixtures for API tests, made inside the test run: an organization with keys
 * (through the data layer's services), small real PDFs, and multipart bodies.
 */
import { execFile } from "node:child_process";
import { randomUUID } from "node:crypto";
import { mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { promisify } from "node:util";
import { PDFDocument, StandardFonts } from "pdf-lib";
import type { Db } from "@/db/client";
import { createApiKey, createUser, OPERATOR } from "@/lib/services";

const run = promisify(execFile);
/** Any password long enough for createUser's policy; nobody signs in with it. */
const FIXTURE_PASSWORD = "correct-horse-battery-staple";

export interface TestOrganization {
  organizationId: string;
  production: { id: string; key: string };
  sandbox: { id: string; key: string };
}

/** A fresh organization (unique slug) with one production and one sandbox key. */
export async function createTestOrganization(db: Db, now?: Date): Promise<TestOrganization> {
  const slug = `api-test-${randomUUID().slice(0, 8)}`;
  const { organization } = await createUser(db, { actor: OPERATOR,
    email: `${slug}@example.test`,
    password: FIXTURE_PASSWORD,
    orgSlug: slug,
    role: "admin",
  });
  const production = await createApiKey(db, { createdBy: OPERATOR, organizationId: organization.id, kind: "production", now });
  const sandbox = await createApiKey(db, { createdBy: OPERATOR, organizationId: organization.id, kind: "sandbox", now });
  return {
    organizationId: organization.id,
    production: { id: production.record.id, key: production.key },
    sandbox: { id: sandbox.record.id, key: sandbox.key },
  };
}

/** A digital PDF with one page per entry, each page carrying its lines of text. */
export async function makePdf(pages: string[][]): Promise<Uint8Array> {
  const pdf = await PDFDocument.create();
  const font = await pdf.embedFont(StandardFonts.Helvetica);
  for (const lines of pages) {
    const page = pdf.addPage([595, 842]);
    lines.forEach((line, i) => page.drawText(line, { x: 50, y: 780 - i * 18, size: 11, font }));
  }
  return pdf.save();
}

/** A commercial invoice of two pages: enough text for the engine to read. */
export function invoicePages(): string[][] {
  return [
    [
      "COMMERCIAL INVOICE",
      "Invoice No.: INV-2024-0193        Date: 14 March 2024",
      "Seller: Acme Coffee Exporters Ltda, Rua das Flores 100, Santos, Brazil",
      "Buyer: Northern Roasters BV, Havenstraat 1, Rotterdam, Netherlands",
      "Description of goods: 320 bags green coffee beans, Brazil Santos NY2",
      "Quantity: 19,200 kg    Unit price: USD 4.10 per kg    Total: USD 78,720.00",
      "Incoterms: FOB Santos    Port of discharge: Rotterdam",
    ],
    ["COMMERCIAL INVOICE (continued)", "Total amount: USD 78,720.00", "Signed for the seller"],
  ];
}

/** Encrypts a PDF with qpdf (AES-256, user password required to open it). */
export async function encryptPdf(bytes: Uint8Array): Promise<Uint8Array> {
  const dir = await mkdtemp(path.join(tmpdir(), "shipshape-encrypt-"));
  try {
    const plain = path.join(dir, "plain.pdf");
    const locked = path.join(dir, "locked.pdf");
    await writeFile(plain, bytes);
    await run("qpdf", ["--encrypt", "user-secret", "owner-secret", "256", "--", plain, locked]);
    return new Uint8Array(await readFile(locked));
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

/** A multipart body carrying any of a file and a url (both, one, or neither). */
export function analyzeForm(parts: { file?: { bytes: Uint8Array; name?: string; type?: string }; url?: string }): FormData {
  const form = new FormData();
  if (parts.file) {
    const blob = new Blob([new Uint8Array(parts.file.bytes)], { type: parts.file.type ?? "application/octet-stream" });
    form.set("file", blob, parts.file.name ?? "document.pdf");
  }
  if (parts.url !== undefined) form.set("url", parts.url);
  return form;
}

const ANALYZE_URL = "http://api.test/v1/documents/analyze";

/** A real Request to the analyze route, as Next would hand it over. */
export function analyzeRequest(body: FormData | string | undefined, init: { key?: string; query?: string; headers?: Record<string, string> } = {}): Request {
  const headers = new Headers(init.headers);
  if (init.key !== undefined) headers.set("x-api-key", init.key);
  return new Request(ANALYZE_URL + (init.query ?? ""), { method: "POST", headers, body });
}
