import { createHash } from "node:crypto";
import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import type { Db } from "@/db/client";
import { analyses } from "@/db/schema";
import { DOCUMENT_TYPES, idOfLabel, validateExtracted } from "@/lib/analysis";
import { analyzeRequest } from "@/lib/api/analyze";
import { withApiKey } from "@/lib/api/handler";
import { resetEnvForTests } from "@/lib/env";
import { generateApiKey } from "@/lib/keys";
import { createApiKey, revokeApiKey, OPERATOR } from "@/lib/services";
import {
  analyzeForm,
  analyzeRequest as request,
  createTestOrganization,
  encryptPdf,
  invoicePages,
  makePdf,
} from "../support/api-fixtures";
import { testDatabases } from "../support/databases";

const MAX_UPLOAD_MB = 1;
const SANDBOX_LIMIT = 3;
const DAY_MS = 24 * 60 * 60 * 1000;
const INVALID_KEY = { detail: "Invalid API key: check the x-api-key header, or ask the operator for a new key." };
const FORM_HINT = "send multipart/form-data with a file field (the document) or a url field (its address)";
const LABELS = new Set<string>(Object.values(DOCUMENT_TYPES).map((t) => t.label));

beforeAll(() => {
  vi.stubEnv("MAX_UPLOAD_MB", String(MAX_UPLOAD_MB));
  vi.stubEnv("RATE_LIMIT_SANDBOX", String(SANDBOX_LIMIT));
  resetEnvForTests();
});
afterAll(() => {
  vi.unstubAllEnvs();
  resetEnvForTests();
});

async function bodyOf(response: Response): Promise<unknown> {
  expect(response.headers.get("content-type")).toMatch(/^application\/json/);
  return response.json();
}

/** A multipart body streamed in chunks with no Content-Length; counts what the server pulled. */
function streamedUpload(totalBytes: number): { body: ReadableStream<Uint8Array>; contentType: string; pulled: () => number } {
  const boundary = "----shipshape-test-boundary";
  const head = Buffer.from(
    `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="big.pdf"\r\nContent-Type: application/pdf\r\n\r\n%PDF-1.7\n`,
  );
  const chunk = Buffer.alloc(64 * 1024, 0x20);
  let sent = 0;
  let first = true;
  const body = new ReadableStream<Uint8Array>({
    pull(controller) {
      if (first) {
        first = false;
        sent += head.length;
        return controller.enqueue(head);
      }
      if (sent >= totalBytes) {
        controller.enqueue(Buffer.from(`\r\n--${boundary}--\r\n`));
        return controller.close();
      }
      sent += chunk.length;
      controller.enqueue(chunk);
    },
  }, { highWaterMark: 0 });
  return { body, contentType: `multipart/form-data; boundary=${boundary}`, pulled: () => sent };
}

describe.each(testDatabases())("POST /v1/documents/analyze on $name", (database) => {
  let db: Db;
  let organizationId: string;
  let productionKey: string;
  let handle: (request: Request) => Promise<Response>;
  let pdf: Uint8Array;

  const newKey = async (kind: "production" | "sandbox", now?: Date) => {
    const { key, record } = await createApiKey(db, { createdBy: OPERATOR, organizationId, kind, now });
    return { key, id: record.id };
  };

  beforeAll(async () => {
    db = await database.open();
    const org = await createTestOrganization(db);
    organizationId = org.organizationId;
    productionKey = org.production.key;
    handle = withApiKey(analyzeRequest, { openDb: async () => db });
    pdf = await makePdf(invoicePages());
  });
  afterAll(async () => {
    if (db) await database.close(db);
  });

  it("200: returns one split per document covering every page, and records the analysis", async () => {
    const response = await handle(request(analyzeForm({ file: { bytes: pdf, name: "invoice.pdf" } }), { key: productionKey }));
    expect(response.status).toBe(200);
    const body = (await bodyOf(response)) as { split: { document_type: string; pages: number[] }; extracted: Record<string, unknown> }[];
    expect(Array.isArray(body)).toBe(true);
    expect(body.length).toBeGreaterThan(0);
    for (const part of body) {
      expect(Object.keys(part).sort()).toEqual(["extracted", "split"]);
      expect(LABELS.has(part.split.document_type)).toBe(true);
      const id = idOfLabel(part.split.document_type);
      expect(id && validateExtracted(id, part.extracted)).toEqual([]);
    }
    expect(body.flatMap((part) => part.split.pages).sort((a, b) => a - b)).toEqual([1, 2]);
    expect(response.headers.get("ratelimit-policy")).toMatch(/^"production";q=\d+;w=60$/);
    expect(response.headers.get("ratelimit")).toMatch(/^"production";r=\d+;t=\d+$/);
    expect(response.headers.get("x-request-id")).toMatch(/^[0-9a-f-]{36}$/);
    // Extracted fields are the organization's data: no browser or shared cache may keep them.
    expect(response.headers.get("cache-control")).toBe("no-store");

    const [row, ...others] = await db.select().from(analyses).where(eq(analyses.organizationId, organizationId));
    expect(others).toEqual([]);
    expect(row).toMatchObject({
      inputName: "invoice.pdf",
      inputBytes: pdf.length,
      sha256: createHash("sha256").update(pdf).digest("hex"),
      pageCount: 2,
      result: body,
    });
  });

  it("200 with ?evidence=true: every split carries an evidence object", async () => {
    const response = await handle(request(analyzeForm({ file: { bytes: pdf } }), { key: productionKey, query: "?evidence=true" }));
    expect(response.status).toBe(200);
    const body = (await bodyOf(response)) as { evidence?: unknown }[];
    for (const part of body) expect(part.evidence).toBeTypeOf("object");
  });

  it("400: both file and url", async () => {
    const response = await handle(request(analyzeForm({ file: { bytes: pdf }, url: "https://example.com/a.pdf" }), { key: productionKey }));
    expect(response.status).toBe(400);
    expect(await bodyOf(response)).toEqual({ detail: "Send either a file or a url, not both." });
  });

  it("400: neither file nor url", async () => {
    const response = await handle(request(analyzeForm({}), { key: productionKey }));
    expect(response.status).toBe(400);
    expect(await bodyOf(response)).toEqual({ detail: `The form has neither a file nor a url; ${FORM_HINT}.` });
  });

  it("400: an unknown form field, and a bad evidence value", async () => {
    const form = analyzeForm({ file: { bytes: pdf } });
    form.set("document", "x");
    const unknown = await handle(request(form, { key: productionKey }));
    expect(unknown.status).toBe(400);
    expect(await bodyOf(unknown)).toEqual({ detail: `Unexpected form field "document"; ${FORM_HINT}.` });
    const evidence = await handle(request(analyzeForm({ file: { bytes: pdf } }), { key: productionKey, query: "?evidence=yes" }));
    expect(evidence.status).toBe(400);
    expect(await bodyOf(evidence)).toEqual({ detail: 'The evidence parameter must be true or false, not "yes".' });
  });

  it("400: a url pointing at a private address", async () => {
    const response = await handle(request(analyzeForm({ url: "http://169.254.169.254/latest/meta-data/" }), { key: productionKey }));
    expect(response.status).toBe(400);
    expect(await bodyOf(response)).toEqual({ detail: "The url's host 169.254.169.254 is not a public internet address." });
  });

  it("401: missing key says the header is missing, and carries no rate-limit headers", async () => {
    const response = await handle(request(analyzeForm({ file: { bytes: pdf } })));
    expect(response.status).toBe(401);
    expect(await bodyOf(response)).toEqual({ detail: "Missing API key: send your key in the x-api-key header." });
    expect(response.headers.get("ratelimit")).toBeNull();
    expect(response.headers.get("x-request-id")).toMatch(/^[0-9a-f-]{36}$/);
  });

  it("401: unknown, malformed and revoked keys get one identical body", async () => {
    const revoked = await newKey("production");
    expect(await revokeApiKey(db, { revokedBy: OPERATOR, organizationId, keyId: revoked.id })).toBe(true);
    for (const key of [generateApiKey("production"), "ss_live_not-a-real-key", revoked.key]) {
      const response = await handle(request(analyzeForm({ file: { bytes: pdf } }), { key }));
      expect(response.status).toBe(401);
      expect(await bodyOf(response)).toEqual(INVALID_KEY);
    }
  });

  it("401: an expired sandbox key says so; the day before it still works", async () => {
    const issued = new Date();
    const sandbox = await newKey("sandbox", issued);
    const at = (days: number) => withApiKey(analyzeRequest, { openDb: async () => db, now: () => new Date(issued.getTime() + days * DAY_MS) });
    const before = await at(27)(request(analyzeForm({}), { key: sandbox.key }));
    expect(before.status).toBe(400);
    const after = await at(28)(request(analyzeForm({}), { key: sandbox.key }));
    expect(after.status).toBe(401);
    expect(await bodyOf(after)).toEqual({
      detail: "This sandbox API key has expired (sandbox keys last 28 days): ask the operator for a new key.",
    });
  });

  it("413: a file over the limit, declared by Content-Length", async () => {
    const big = Buffer.concat([Buffer.from("%PDF-1.7\n"), Buffer.alloc(MAX_UPLOAD_MB * 2 ** 20)]);
    const response = await handle(request(analyzeForm({ file: { bytes: big } }), { key: productionKey }));
    expect(response.status).toBe(413);
    expect(await bodyOf(response)).toEqual({ detail: `The file is larger than the ${MAX_UPLOAD_MB} MB limit.` });
  });

  it("413: a chunked upload with no Content-Length is refused before it is read whole", async () => {
    const total = MAX_UPLOAD_MB * 2 ** 20 * 4;
    const upload = streamedUpload(total);
    const response = await handle(
      new Request("http://api.test/v1/documents/analyze", {
        method: "POST",
        headers: { "x-api-key": productionKey, "content-type": upload.contentType },
        body: upload.body,
        duplex: "half",
      } as RequestInit),
    );
    expect(response.status).toBe(413);
    expect(await bodyOf(response)).toEqual({ detail: `The file is larger than the ${MAX_UPLOAD_MB} MB limit.` });
    expect(upload.pulled()).toBeLessThan(total / 2);
  });

  it("415: a body that is not multipart", async () => {
    const response = await handle(request(JSON.stringify({ url: "https://example.com/a.pdf" }), {
      key: productionKey,
      headers: { "content-type": "application/json" },
    }));
    expect(response.status).toBe(415);
    expect(await bodyOf(response)).toEqual({ detail: `The request body is application/json; ${FORM_HINT}.` });
  });

  it("415: bytes of no supported format, whatever the name and declared type say", async () => {
    const bytes = new TextEncoder().encode("name,amount\nwidgets,12\n");
    const response = await handle(
      request(analyzeForm({ file: { bytes, name: "invoice.pdf", type: "application/pdf" } }), { key: productionKey }),
    );
    expect(response.status).toBe(415);
    expect(await bodyOf(response)).toEqual({
      detail: "The document is not a format we read; send a PDF, DOCX, EML, PNG, JPEG, TIFF or WebP document.",
    });
  });

  it("422: an empty file", async () => {
    const response = await handle(request(analyzeForm({ file: { bytes: new Uint8Array(0) } }), { key: productionKey }));
    expect(response.status).toBe(422);
    expect(await bodyOf(response)).toEqual({ detail: "The document is empty (0 bytes)." });
  });

  it("422: garbage behind a %PDF- header", async () => {
    const bytes = Buffer.concat([Buffer.from("%PDF-1.7\n"), Buffer.from("this is not a pdf body at all ".repeat(40))]);
    const response = await handle(request(analyzeForm({ file: { bytes } }), { key: productionKey }));
    expect(response.status).toBe(422);
    expect(await bodyOf(response)).toEqual({ detail: "The file is not a readable PDF: it is damaged or truncated." });
  });

  it("422: an encrypted PDF", async () => {
    const response = await handle(request(analyzeForm({ file: { bytes: await encryptPdf(pdf) } }), { key: productionKey }));
    expect(response.status).toBe(422);
    expect(await bodyOf(response)).toEqual({
      detail: "The PDF is password-protected; remove the password and upload it again.",
    });
  });

  it("429: over the sandbox limit, which the organization's sandbox keys share, with Retry-After and rate-limit headers", async () => {
    // A fresh organization, so that no other case has spent from its buckets.
    const org = await createTestOrganization(db);
    const second = await createApiKey(db, { createdBy: OPERATOR, organizationId: org.organizationId, kind: "sandbox" });
    const keys = [org.sandbox.key, second.key];
    for (let i = 0; i < SANDBOX_LIMIT; i++) {
      const allowed = await handle(request(analyzeForm({}), { key: keys[i % keys.length] }));
      expect(allowed.status).toBe(400);
      expect(allowed.headers.get("ratelimit")).toBe(`"sandbox";r=${SANDBOX_LIMIT - 1 - i};t=${allowed.headers.get("ratelimit")?.split("t=")[1]}`);
    }
    const refused = await handle(request(analyzeForm({}), { key: org.sandbox.key }));
    expect(refused.status).toBe(429);
    const retryAfter = refused.headers.get("retry-after");
    expect(Number(retryAfter)).toBeGreaterThanOrEqual(1);
    expect(refused.headers.get("ratelimit-policy")).toBe(`"sandbox";q=${SANDBOX_LIMIT};w=60`);
    expect(refused.headers.get("ratelimit")).toMatch(/^"sandbox";r=0;t=\d+$/);
    expect(await bodyOf(refused)).toEqual({
      detail: `Rate limit of ${SANDBOX_LIMIT} requests per 60 s exceeded for this organization's sandbox keys; retry after ${retryAfter} s.`,
    });
    // The organization's production keys and other organizations keep their own buckets.
    expect((await handle(request(analyzeForm({}), { key: org.production.key }))).status).toBe(400);
    expect((await handle(request(analyzeForm({}), { key: (await newKey("sandbox")).key }))).status).toBe(400);
  });

  it("500: a failing database gives the request id only, and logs it", async () => {
    const closed = await database.open();
    await database.close(closed);
    const log = vi.spyOn(console, "error").mockImplementation(() => undefined);
    try {
      const response = await withApiKey(analyzeRequest, { openDb: async () => closed })(
        request(analyzeForm({ file: { bytes: pdf } }), { key: productionKey }),
      );
      expect(response.status).toBe(500);
      const requestId = response.headers.get("x-request-id");
      expect(await bodyOf(response)).toEqual({ detail: `Internal error (request id ${requestId}).` });
      // One line: the request id and the error's name, code and message (lib/log.ts), never the error object.
      expect(log).toHaveBeenCalledWith(expect.stringMatching(new RegExp(`^\\[request ${requestId}\\] internal error: \\w+`)));
    } finally {
      log.mockRestore();
    }
  });
});
