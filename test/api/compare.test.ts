import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Db } from "@/db/client";
import { examineFiles } from "@/lib/analysis/examine/files";
import { compareRequest, MAX_COMPARE_FILES } from "@/lib/api/compare";
import { STATUS_BY_CODE } from "@/lib/api/errors";
import { withApiKey } from "@/lib/api/handler";
import { buildOpenApiDocument, COMPARE_PATH } from "@/lib/api/openapi";
import { env } from "@/lib/env";
import { generatePacket } from "@/test/fixtures/generator";
import { createTestOrganization, encryptPdf, invoicePages, makePdf } from "../support/api-fixtures";
import { testDatabases } from "../support/databases";

const COMPARE_URL = "http://api.test/v1/documents/compare";
const PRESENTATION_DATE = "2030-01-01";

interface Upload {
  name: string;
  bytes: Uint8Array;
}

function compareForm(files: Upload[], presentationDate?: string): FormData {
  const form = new FormData();
  for (const file of files) form.append("file", new Blob([new Uint8Array(file.bytes)]), file.name);
  if (presentationDate !== undefined) form.set("presentation_date", presentationDate);
  return form;
}

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
  it("documents every status code, the repeated file part and the optional presentation date", () => {
    const operation = openApi.paths[COMPARE_PATH]?.post;
    const codes = ["200", ...Object.values(STATUS_BY_CODE).map(String)].sort();
    expect(Object.keys(operation?.responses ?? {}).sort()).toEqual(codes);
    expect(operation?.responses["200"]?.content["application/json"].schema).toEqual({ $ref: "#/components/schemas/ExaminationResult" });
    const form = operation?.requestBody?.content["multipart/form-data"].schema as { required: string[]; properties: Record<string, unknown> };
    expect(form.required).toEqual(["file"]);
    expect(form.properties.file).toMatchObject({ type: "array", minItems: 1, maxItems: MAX_COMPARE_FILES });
    expect(form.properties.presentation_date).toMatchObject({ type: "string", format: "date" });
  });
});

describe.each(testDatabases())("POST /v1/documents/compare on $name", (database) => {
  let db: Db;
  let key: string;
  let handle: (request: Request) => Promise<Response>;
  let credit: Upload;
  let invoice: Upload;

  beforeAll(async () => {
    db = await database.open();
    key = (await createTestOrganization(db)).production.key;
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
    expect(await detailOf(response)).toMatch(/^notes\.txt: not a format we read/);
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

  it("401: no API key", async () => {
    const response = await handle(compareRequestOf(compareForm([invoice])));
    expect(response.status).toBe(401);
    expect(await detailOf(response)).toMatch(/^Missing API key/);
  });
});
