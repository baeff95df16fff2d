import { PDFDocument, StandardFonts } from "pdf-lib";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { and, eq, isNull, like } from "drizzle-orm";
import type { Db } from "@/db/client";
import { STORED_FILE_CHUNK_BYTES } from "@/db/queries/sets-storage";
import { analysisJobs, documentChunks, storedFiles } from "@/db/schema";
import { analyzeDocument, examineFiles } from "@/lib/analysis";
import { analyzeRequest } from "@/lib/api/analyze";
import { compareRequest, MAX_COMPARE_FILES } from "@/lib/api/compare";
import { MAX_COMPARE_ANALYSES } from "@/lib/api/compare-analyses";
import { STATUS_BY_CODE } from "@/lib/errors";
import { withApiKey } from "@/lib/api/handler";
import { resetUploadIntakeHighWater, uploadIntakeHighWater } from "@/lib/api/upload-chunks";
import { ANALYSIS_ID_HEADER, buildOpenApiDocument, COMPARE_PATH } from "@/lib/api/openapi";
import { env, resetEnvForTests } from "@/lib/env";
import { recordAnalysis } from "@/lib/services";
import { generatePacket } from "@/test/fixtures/generator";
import { createTestOrganization, encryptPdf, invoicePages, makePdf } from "../support/api-fixtures";
import { testDatabases } from "../support/databases";
import { pdfOf, streamedForm, streamedRequest } from "../support/streamed-form";

const COMPARE_URL = "http://api.test/v1/documents/compare";
const PRESENTATION_DATE = "2030-01-01";

interface Upload {
  name: string;
  bytes: Uint8Array;
  /** The part's Content-Type; none when unset. */
  type?: string;
}

function compareForm(files: Upload[], presentationDate?: string, analysisIds: string[] = []): FormData {
  const form = new FormData();
  for (const file of files) form.append("file", new Blob([new Uint8Array(file.bytes)], file.type ? { type: file.type } : {}), file.name);
  for (const id of analysisIds) form.append("analysis_id", id);
  if (presentationDate !== undefined) form.set("presentation_date", presentationDate);
  return form;
}

/** Stores an analysis of the upload for the organization, as POST /v1/documents/analyze does; returns its id. */
async function storeAnalysis(db: Db, organizationId: string, upload: Upload): Promise<string> {
  const result = await analyzeDocument(upload.bytes, { fileName: upload.name });
  const { id } = await recordAnalysis(db, {
    organizationId, inputName: upload.name, inputBytes: upload.bytes.length, sha256: "0".repeat(64), pageCount: 1, result, durationMs: 1,
  });
  return id;
}

/** The PDF with one more line of text near the foot of its first page. */
async function withNotation(pdf: Uint8Array, text: string): Promise<Uint8Array> {
  const doc = await PDFDocument.load(pdf);
  doc.getPage(0).drawText(text, { x: 60, y: 60, size: 10, font: await doc.embedFont(StandardFonts.Helvetica) });
  return doc.save();
}

const UNKNOWN_ANALYSIS = (id: string) => `No analysis ${id} was found for this API key's organization.`;

function compareRequestOf(form: FormData, key?: string): Request {
  const headers = new Headers();
  if (key !== undefined) headers.set("x-api-key", key);
  return new Request(COMPARE_URL, { method: "POST", headers, body: form });
}

async function detailOf(response: Response): Promise<string> {
  const body = (await response.json()) as Record<string, unknown>;
  expect(Object.keys(body)).toEqual(["detail"]);
  return String(body.detail);
}

const openApi = buildOpenApiDocument(env());

/** Every object in the result carries its schema's required keys and only the keys it declares. */
function expectConforms(value: Record<string, unknown>, schemaName: string): void {
  const schema = openApi.components.schemas[schemaName] as { required: string[]; properties: Record<string, unknown> };
  expect(Object.keys(value)).toEqual(expect.arrayContaining(schema.required));
  for (const key of Object.keys(value)) expect(schema.properties, `${schemaName}.${key}`).toHaveProperty([key]);
}

describe("OpenAPI: POST /v1/documents/compare", () => {
  it("documents every status code, the repeated file and analysis_id parts and the optional presentation date", () => {
    const operation = openApi.paths[COMPARE_PATH]?.post;
    // 403 and 409 are the web app's (a member's role, a set's state); a keyed route answers neither.
    const codes = ["200", ...Object.values(STATUS_BY_CODE).filter((s) => s !== 403 && s !== 409).map(String)].sort();
    expect(Object.keys(operation?.responses ?? {}).sort()).toEqual(codes);
    expect(operation?.responses["200"]?.content["application/json"].schema).toEqual({ $ref: "#/components/schemas/ExaminationResult" });
    const form = operation?.requestBody?.content["multipart/form-data"].schema as { anyOf: unknown[]; properties: Record<string, unknown> };
    expect(form.anyOf).toEqual([{ required: ["file"] }, { required: ["analysis_id"] }]);
    expect(form.properties.file).toMatchObject({ type: "array", minItems: 1, maxItems: MAX_COMPARE_FILES });
    expect(form.properties.analysis_id).toMatchObject({ type: "array", minItems: 1, maxItems: MAX_COMPARE_ANALYSES });
    expect(form.properties.presentation_date).toMatchObject({ type: "string", format: "date" });
    expect(operation?.description).toMatch(/404, with the same detail whether it exists elsewhere or not at all/);
  });

  it("names the stored analysis in the analyze response's x-analysis-id header", () => {
    const analyze = openApi.paths["/v1/documents/analyze"]?.post;
    expect(analyze?.responses["200"]?.headers).toHaveProperty([ANALYSIS_ID_HEADER]);
    expect(openApi.components.headers["X-Analysis-Id"]?.schema).toMatchObject({ type: "string" });
  });
});

describe.each(testDatabases())("POST /v1/documents/compare on $name", (database) => {
  let db: Db;
  let key: string;
  let ownOrganization: string;
  let handle: (request: Request) => Promise<Response>;
  let credit: Upload;
  let invoice: Upload;

  beforeAll(async () => {
    db = await database.open();
    const organization = await createTestOrganization(db);
    key = organization.production.key;
    ownOrganization = organization.organizationId;
    handle = withApiKey(compareRequest, { openDb: async () => db });
    credit = { name: "credit.pdf", bytes: (await generatePacket({ seed: 11, types: ["letter_of_credit"] })).pdf };
    invoice = { name: "invoice.pdf", bytes: (await generatePacket({ seed: 11, types: ["commercial_invoice"] })).pdf };
  });
  afterAll(async () => {
    if (db) await database.close(db);
  });

  it("200: returns exactly what examineFiles (the CLI) returns for the same files and date", async () => {
    const response = await handle(compareRequestOf(compareForm([credit, invoice], PRESENTATION_DATE), key));
    expect(response.status).toBe(200);
    expect(response.headers.get("ratelimit-policy")).toMatch(/^"production";q=\d+;w=60$/);
    const body = (await response.json()) as { findings: unknown[]; matrix: { columns: { fileName?: string; role: string }[] } };
    expect(body).toEqual(JSON.parse(JSON.stringify(await examineFiles([credit, invoice], PRESENTATION_DATE))));
    expect(body.matrix.columns.map((c) => c.fileName)).toEqual(expect.arrayContaining(["credit.pdf", "invoice.pdf"]));
    expect(body.matrix.columns.some((c) => c.role === "credit")).toBe(true);
    expectConforms(body, "ExaminationResult");
    for (const finding of body.findings as Record<string, unknown>[]) {
      expectConforms(finding, "Finding");
      for (const document of finding.documents as Record<string, unknown>[]) expectConforms(document, "FindingDocument");
    }
    const matrix = body.matrix as unknown as { columns: Record<string, unknown>[]; rows: { cells: Record<string, unknown>[] }[] };
    expect(matrix.rows.length).toBeGreaterThan(0);
    for (const column of matrix.columns) expectConforms(column, "MatrixColumn");
    for (const row of matrix.rows) {
      expectConforms(row as unknown as Record<string, unknown>, "MatrixRow");
      expect(row.cells).toHaveLength(matrix.columns.length);
      for (const cell of row.cells) expectConforms(cell, "MatrixCell");
    }
    // Presented years after expiry: the finding proves the date was applied.
    expect(body.findings).toContainEqual(expect.objectContaining({ rule: "presentation.expiry" }));
  });

  it("200: a file of several chunks streams into storage as it arrives (one chunk held at a time), and its job reads it back whole", { timeout: 120_000 }, async () => {
    // The credit with 2.5 MB of incompressible bytes attached: three chunks, the same text.
    const doc = await PDFDocument.load(credit.bytes);
    await doc.attach(pdfOf(2.5 * 2 ** 20).subarray(9), "padding.bin", { mimeType: "application/octet-stream" });
    const large = { name: "credit.pdf", bytes: await doc.save() };
    expect(large.bytes.length).toBeGreaterThan(2 * STORED_FILE_CHUNK_BYTES);
    const chunksOf = async () => (await db.select({ key: documentChunks.storageKey }).from(documentChunks).where(eq(documentChunks.organizationId, ownOrganization))).length;
    const before = await chunksOf();
    resetUploadIntakeHighWater();
    const parts = [large, invoice].map((file) => ({ field: "file", name: file.name, bytes: file.bytes, type: "application/pdf" }));
    const streamed = streamedForm([...parts, { field: "presentation_date", value: PRESENTATION_DATE }], { probe: chunksOf });
    const response = await handle(streamedRequest(COMPARE_URL, key, streamed.body));
    expect(response.status).toBe(200);
    // Before the last piece (its tail, the invoice and the date) left the client, its two full chunks were in the database.
    expect((await streamed.probed!) - before).toBeGreaterThanOrEqual(2);
    expect(uploadIntakeHighWater()).toBeGreaterThan(0);
    expect(uploadIntakeHighWater()).toBeLessThanOrEqual(STORED_FILE_CHUNK_BYTES);
    expect(await response.json()).toEqual(JSON.parse(JSON.stringify(await examineFiles([large, invoice], PRESENTATION_DATE))));
  });

  it("400: a form with no file", async () => {
    const response = await handle(compareRequestOf(compareForm([], PRESENTATION_DATE), key));
    expect(response.status).toBe(400);
    expect(await detailOf(response)).toMatch(/no file/);
  });

  it("400: a presentation date not written YYYY-MM-DD", async () => {
    for (const date of ["01/02/2030", "2030-02-30", ""]) {
      const response = await handle(compareRequestOf(compareForm([invoice], date), key));
      expect(response.status).toBe(400);
      expect(await detailOf(response)).toMatch(/presentation_date must be a date written YYYY-MM-DD/);
    }
  });

  it("400: more files than one presentation may hold", async () => {
    const files = Array.from({ length: MAX_COMPARE_FILES + 1 }, (_, i) => ({ name: `f${i}.pdf`, bytes: invoice.bytes.slice(0, 16) }));
    const response = await handle(compareRequestOf(compareForm(files), key));
    expect(response.status).toBe(400);
    expect(await detailOf(response)).toBe(`Send at most ${MAX_COMPARE_FILES} files per request.`);
  });

  it("415: a file in a format we do not read, named", async () => {
    const text = { name: "notes.txt", bytes: new TextEncoder().encode("just some text, not a document") };
    const response = await handle(compareRequestOf(compareForm([credit, text]), key));
    expect(response.status).toBe(415);
    expect(await detailOf(response)).toMatch(/^notes\.txt: The document is not a format we read/);
  });

  it("415: a part declared application/pdf whose bytes are PNG, named, as analyze answers it", async () => {
    const png = Buffer.from("89504e470d0a1a0a0000000d49484452000000010000000108060000001f15c4890000000d4944415478da63f8ffff3f0005fe02fea73581e40000000049454e44ae426082", "hex");
    const response = await handle(compareRequestOf(compareForm([credit, { name: "scan.pdf", bytes: png, type: "application/pdf" }]), key));
    expect(response.status).toBe(415);
    expect(await detailOf(response)).toBe("scan.pdf: The file is sent as application/pdf but its bytes are PNG; send the document with its real type.");
  });

  it("422: an empty or encrypted file, named", async () => {
    const empty = await handle(compareRequestOf(compareForm([credit, { name: "empty.pdf", bytes: new Uint8Array() }]), key));
    expect(empty.status).toBe(422);
    expect(await detailOf(empty)).toMatch(/^empty\.pdf: /);

    const locked = { name: "locked.pdf", bytes: await encryptPdf(await makePdf(invoicePages())) };
    const encrypted = await handle(compareRequestOf(compareForm([credit, locked]), key));
    expect(encrypted.status).toBe(422);
    expect(await detailOf(encrypted)).toMatch(/^locked\.pdf: .*(encrypt|password)/i);
  });

  it("200: stored analyses by id, alone or mixed with files, examined like the same files", async () => {
    const creditId = await storeAnalysis(db, ownOrganization, credit);
    const invoiceId = await storeAnalysis(db, ownOrganization, invoice);
    const mixed = await handle(compareRequestOf(compareForm([credit], PRESENTATION_DATE, [invoiceId]), key));
    expect(mixed.status).toBe(200);
    const body = (await mixed.json()) as { findings: { rule: string }[]; matrix: { columns: { id: string; fileName?: string; role: string }[] } };
    const invoiceColumns = body.matrix.columns.filter((c) => c.id.startsWith(`${invoiceId}#`));
    expect(invoiceColumns.length).toBeGreaterThan(0);
    expect(invoiceColumns.every((c) => c.fileName === "invoice.pdf")).toBe(true);
    expect(body.matrix.columns.some((c) => c.fileName === "credit.pdf" && c.role === "credit")).toBe(true);
    expect(body.findings).toContainEqual(expect.objectContaining({ rule: "presentation.expiry" }));

    const onlyIds = await handle(compareRequestOf(compareForm([], PRESENTATION_DATE, [creditId, invoiceId]), key));
    expect(onlyIds.status).toBe(200);
    const idsBody = (await onlyIds.json()) as { matrix: { columns: { id: string; role: string }[] } };
    expect(idsBody.matrix.columns.some((c) => c.id.startsWith(`${creditId}#`) && c.role === "credit")).toBe(true);
  });

  it("Idempotency-Key: a replayed compare, even a concurrent one, answers from the first one's jobs; the key with other files is 422", async () => {
    const idempotencyKey = `compare-${Math.random()}`;
    const send = (files: Upload[]) =>
      handle(new Request(COMPARE_URL, { method: "POST", headers: { "x-api-key": key, "idempotency-key": idempotencyKey }, body: compareForm(files, PRESENTATION_DATE) }));
    const [first, replay] = await Promise.all([send([credit, invoice]), send([credit, invoice])]);
    expect([first.status, replay.status]).toEqual([200, 200]);
    expect(await replay.json()).toEqual(await first.json());
    const again = await send([credit, invoice]);
    expect(again.status).toBe(200);
    const jobs = await db
      .select({ id: analysisJobs.id })
      .from(analysisJobs)
      .where(and(eq(analysisJobs.organizationId, ownOrganization), like(analysisJobs.idempotencyKey, `%:${idempotencyKey}`)));
    expect(jobs).toHaveLength(2);
    // The replays' own uploads were removed before their answers: nothing is left unreceived.
    expect(await db.select().from(storedFiles).where(and(eq(storedFiles.organizationId, ownOrganization), isNull(storedFiles.receivedAt)))).toEqual([]);

    const reordered = await send([invoice, credit]);
    expect(reordered.status).toBe(422);
    expect(await detailOf(reordered)).toBe(
      `The Idempotency-Key "${idempotencyKey}" was already used for a different request in the last 24 hours; use a new key for a new request.`,
    );
  });

  it("200: the id in analyze's x-analysis-id header is accepted by compare", async () => {
    const analyze = withApiKey(analyzeRequest, { openDb: async () => db });
    const form = new FormData();
    form.set("file", new Blob([new Uint8Array(invoice.bytes)]), invoice.name);
    const analyzed = await analyze(new Request("http://api.test/v1/documents/analyze", { method: "POST", headers: { "x-api-key": key }, body: form }));
    expect(analyzed.status).toBe(200);
    expect(Array.isArray(await analyzed.json())).toBe(true);
    const id = analyzed.headers.get(ANALYSIS_ID_HEADER);
    expect(id).toMatch(/^ana_[0-9A-Za-z]{22}$/);
    const response = await handle(compareRequestOf(compareForm([credit], PRESENTATION_DATE, [id!]), key));
    expect(response.status).toBe(200);
  });

  it("200: analyses stored by analyze are examined by id exactly as their files, clause rules included", async () => {
    // A carrier's notation declaring the packing defective: only the page text shows it (UCP 600 art. 27).
    const bill = { name: "bill.pdf", bytes: await withNotation((await generatePacket({ seed: 11, types: ["bill_of_lading"] })).pdf, "3 CARTONS TORN AND STAINED") };
    const analyze = withApiKey(analyzeRequest, { openDb: async () => db });
    const ids: string[] = [];
    for (const upload of [credit, invoice, bill]) {
      const form = new FormData();
      form.set("file", new Blob([new Uint8Array(upload.bytes)]), upload.name);
      const analyzed = await analyze(new Request("http://api.test/v1/documents/analyze", { method: "POST", headers: { "x-api-key": key }, body: form }));
      expect(analyzed.status).toBe(200);
      ids.push(analyzed.headers.get(ANALYSIS_ID_HEADER)!);
    }
    type Body = { findings: { rule: string; severity: string; expected?: unknown; found?: unknown; documents: { type: string; pages: number[] }[] }[] };
    // Documents are named by file or by analysis id; what was found must not depend on which.
    const essence = (body: Body) =>
      body.findings.map((f) => ({ ...f, documents: f.documents.map((d) => `${d.type} ${d.pages.join(",")}`), message: undefined, id: undefined })).sort((a, b) => JSON.stringify(a).localeCompare(JSON.stringify(b)));
    const byFiles = (await (await handle(compareRequestOf(compareForm([credit, invoice, bill], PRESENTATION_DATE), key))).json()) as Body;
    const byIds = (await (await handle(compareRequestOf(compareForm([], PRESENTATION_DATE, ids), key))).json()) as Body;
    expect(byFiles.findings.map((f) => f.rule)).toContain("bl.clean");
    expect(essence(byIds)).toEqual(essence(byFiles));
  });

  it("404: another organization's analysis id, answered exactly as an id that does not exist", async () => {
    const other = await createTestOrganization(db);
    const foreignId = await storeAnalysis(db, other.organizationId, invoice);
    const foreign = await handle(compareRequestOf(compareForm([credit], PRESENTATION_DATE, [foreignId]), key));
    expect(foreign.status).toBe(404);
    expect(await foreign.json()).toEqual({ detail: UNKNOWN_ANALYSIS(foreignId) });

    const missingId = `ana_${"A".repeat(22)}`;
    const missing = await handle(compareRequestOf(compareForm([credit], PRESENTATION_DATE, [missingId]), key));
    expect(missing.status).toBe(404);
    expect(await missing.json()).toEqual({ detail: UNKNOWN_ANALYSIS(missingId) });

    // The owner's own key reaches it.
    const own = await handle(compareRequestOf(compareForm([credit], PRESENTATION_DATE, [foreignId]), other.production.key));
    expect(own.status).toBe(200);
  });

  it("400: a malformed or repeated analysis id", async () => {
    for (const bad of ["42", "ana_short", "key_AAAAAAAAAAAAAAAAAAAAAA", "ana_AAAAAAAAAAAAAAAAAAAA'--"]) {
      const response = await handle(compareRequestOf(compareForm([], PRESENTATION_DATE, [bad]), key));
      expect(response.status).toBe(400);
      expect(await detailOf(response)).toBe(`The analysis_id "${bad}" is not an analysis id (ana_ followed by 22 letters and digits).`);
    }
    const id = `ana_${"B".repeat(22)}`;
    const twice = await handle(compareRequestOf(compareForm([], PRESENTATION_DATE, [id, id]), key));
    expect(twice.status).toBe(400);
    expect(await detailOf(twice)).toBe(`The analysis_id ${id} is given twice.`);
  });

  it("400: more analysis ids than one presentation may name", async () => {
    const ids = Array.from({ length: MAX_COMPARE_ANALYSES + 1 }, (_, i) => `ana_${String(i).padStart(22, "C")}`);
    const response = await handle(compareRequestOf(compareForm([], undefined, ids), key));
    expect(response.status).toBe(400);
    expect(await detailOf(response)).toBe(`Send at most ${MAX_COMPARE_ANALYSES} analysis_id values per request.`);
  });

  it("422: a stored analysis whose result is not an analysis array", async () => {
    const { id } = await recordAnalysis(db, {
      organizationId: ownOrganization, inputName: "odd.pdf", inputBytes: 1, sha256: "0".repeat(64), pageCount: 1, result: { detail: "x" }, durationMs: 1,
    });
    const response = await handle(compareRequestOf(compareForm([], PRESENTATION_DATE, [id]), key));
    expect(response.status).toBe(422);
    expect(await detailOf(response)).toBe(`Analysis ${id} holds no analysis result to examine.`);
  });

  it("401: no API key", async () => {
    const response = await handle(compareRequestOf(compareForm([invoice])));
    expect(response.status).toBe(401);
    expect(await detailOf(response)).toMatch(/^Missing API key/);
  });
});

describe.each(testDatabases())("compare against the rate limit on $name", (database) => {
  let db: Db;

  beforeAll(async () => {
    vi.stubEnv("RATE_LIMIT_SANDBOX", "3");
    resetEnvForTests();
    db = await database.open();
  });
  afterAll(async () => {
    if (db) await database.close(db);
    vi.unstubAllEnvs();
    resetEnvForTests();
  });

  it("429: a compare counts each of its files, so four files do not fit a limit of three requests", async () => {
    const organization = await createTestOrganization(db);
    const handle = withApiKey(compareRequest, { openDb: async () => db });
    const invoice = { name: "invoice.pdf", bytes: await makePdf(invoicePages()) };
    const files = [1, 2, 3, 4].map((n) => ({ ...invoice, name: `invoice-${n}.pdf` }));
    const response = await handle(compareRequestOf(compareForm(files, PRESENTATION_DATE), organization.sandbox.key));
    expect(response.status).toBe(429);
    expect(await detailOf(response)).toMatch(/^A compare counts each file against the rate limit: 4 files exceed what this organization's sandbox keys have left; retry after \d+ s\.$/);
    expect(Number(response.headers.get("retry-after"))).toBeGreaterThan(0);
  });
});
