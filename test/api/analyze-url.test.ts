import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import type { Db } from "@/db/client";
import { analyzeRequest } from "@/lib/api/analyze";
import { withApiKey } from "@/lib/api/handler";
import { setUrlFetchOverridesForTests } from "@/lib/api/url-fetch";
import { resetEnvForTests } from "@/lib/env";
import { analyzeForm, analyzeRequest as request, createTestOrganization, invoicePages, makePdf } from "../support/api-fixtures";
import { testDatabases } from "../support/databases";
import { startCanary, startDocumentOrigin, type Canary, type DocumentOrigin } from "../support/loopback-servers";

const MAX_UPLOAD_MB = 1;

let canary: Canary;
let origin: DocumentOrigin;
let pdf: Uint8Array;

beforeAll(async () => {
  vi.stubEnv("MAX_UPLOAD_MB", String(MAX_UPLOAD_MB));
  resetEnvForTests();
  canary = await startCanary();
  pdf = await makePdf(invoicePages());
  origin = await startDocumentOrigin({ pdf, canaryPort: canary.port, bombBytes: MAX_UPLOAD_MB * 2 ** 20 * 4 });
  setUrlFetchOverridesForTests({ trustedOrigin: origin.origin });
});

afterAll(async () => {
  setUrlFetchOverridesForTests({});
  await canary?.close();
  await origin?.close();
  vi.unstubAllEnvs();
  resetEnvForTests();
});

describe.each(testDatabases())("POST /v1/documents/analyze with a url on $name", (database) => {
  let db: Db;
  let key: string;
  let handle: (request: Request) => Promise<Response>;

  beforeAll(async () => {
    db = await database.open();
    key = (await createTestOrganization(db)).production.key;
    handle = withApiKey(analyzeRequest, { openDb: async () => db });
  });
  afterAll(async () => {
    if (db) await database.close(db);
    expect(canary.connections()).toBe(0);
  });

  const post = (url: string) => handle(request(analyzeForm({ url }), { key }));

  it("200: analyses the PDF the trusted test origin serves", async () => {
    const response = await post(`${origin.origin}/doc.pdf`);
    expect(response.status).toBe(200);
    const body = (await response.json()) as { split: { pages: number[] } }[];
    expect(body.flatMap((part) => part.split.pages).sort()).toEqual([1, 2]);
  });

  it("413: a gzip bomb is cut at the decoded cap", async () => {
    const response = await post(`${origin.origin}/bomb`);
    expect(response.status).toBe(413);
    expect(await response.json()).toEqual({ detail: `The document at the url is larger than ${MAX_UPLOAD_MB} MB.` });
  });

  it("415: HTML labelled as PDF", async () => {
    const response = await post(`${origin.origin}/html-as-pdf`);
    expect(response.status).toBe(415);
    expect(await response.json()).toEqual({
      detail: "The document is not a format we read; send a PDF, DOCX, EML, PNG, JPEG, TIFF or WebP document.",
    });
  });

  it("415: PNG bytes labelled as PDF", async () => {
    const response = await post(`${origin.origin}/png-as-pdf`);
    expect(response.status).toBe(415);
    expect(await response.json()).toEqual({
      detail: "The url is served as application/pdf but its bytes are PNG; serve the document with its real type.",
    });
  });

  it("400: a redirect from the trusted origin to another loopback port", async () => {
    const response = await post(`${origin.origin}/to-canary`);
    expect(response.status).toBe(400);
    expect(await response.json()).toEqual({
      detail: `The url's redirect target must use port 80 or 443, not ${canary.port}.`,
    });
  });
});
