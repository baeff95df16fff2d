import { execFile } from "node:child_process";
import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { promisify } from "node:util";
import { generateApi } from "swagger-typescript-api";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Db } from "@/db/client";
import { analyzeRequest } from "@/lib/api/analyze";
import { withApiKey } from "@/lib/api/handler";
import { buildOpenApiDocument } from "@/lib/api/openapi";
import { env } from "@/lib/env";
import { generatePacket } from "@/test/fixtures/generator";
import { createTestOrganization } from "../support/api-fixtures";
import { testDatabases } from "../support/databases";

/**
 * A client generated from the OpenAPI document, as an API user would make one
 * (swagger-typescript-api, fetch client), compiled with our tsc and run against
 * the real analyze route. The program below is what a client writes: it tells a
 * Bill of Lading from an Invoice by `split.document_type` alone, and tsc refuses
 * an invoice's key on a bill of lading (the @ts-expect-error line fails the
 * compile if the generated types stop telling the two apart).
 */
const CLIENT_FILE = "shipshape-api";
const PROGRAM = `
import { Api, type Split, type SplitResult } from "./${CLIENT_FILE}";

type DocumentType = SplitResult["split"]["document_type"];
/** The result schema of one document type: its split names that type. */
type ResultOf<T extends DocumentType> = Extract<SplitResult, { split: { document_type: T } }>;

function isType<T extends DocumentType>(result: SplitResult, type: T): result is ResultOf<T> {
  return result.split.document_type === type;
}

/** The discriminator alone narrows a split to its type's schema. */
function pagesOfBillOfLading(split: Split): number[] {
  switch (split.document_type) {
    case "Bill of Lading": {
      const narrowed: "Bill of Lading" = split.document_type;
      return narrowed ? split.pages : [];
    }
    default:
      return [];
  }
}

export interface Summary {
  analysisId: string | null;
  types: DocumentType[];
  blNumbers: (string | undefined)[];
  invoiceTotals: (number | undefined)[];
  billOfLadingPages: number[];
}

export async function summarize(fetchImpl: typeof fetch, apiKey: string, file: File): Promise<Summary> {
  const api = new Api<string>({
    baseUrl: "http://api.test",
    customFetch: fetchImpl,
    securityWorker: (key) => (key ? { headers: { "x-api-key": key } } : {}),
  });
  api.setSecurityData(apiKey);
  const response = await api.v1.analyzeDocument({ file }, { evidence: false });
  const summary: Summary = { analysisId: response.headers.get("x-analysis-id"), types: [], blNumbers: [], invoiceTotals: [], billOfLadingPages: [] };
  for (const result of response.data) {
    summary.types.push(result.split.document_type);
    summary.billOfLadingPages.push(...pagesOfBillOfLading(result.split));
    if (isType(result, "Bill of Lading")) {
      summary.blNumbers.push(result.extracted.bl_number);
      // @ts-expect-error an invoice's total is no key of a bill of lading
      void result.extracted.total_amount;
    }
    if (isType(result, "Commercial Invoice")) summary.invoiceTotals.push(result.extracted.total_amount);
  }
  return summary;
}
`;

/** Our tsc's strictness, on the generated client and the program alone. */
const TSCONFIG = {
  compilerOptions: {
    target: "ES2022",
    lib: ["dom", "dom.iterable", "ES2023"],
    strict: true,
    noUncheckedIndexedAccess: true,
    noEmit: true,
    module: "esnext",
    moduleResolution: "bundler",
    isolatedModules: true,
    skipLibCheck: true,
    types: [],
  },
  include: ["*.ts"],
};

const run = promisify(execFile);
const TSC = path.join(process.cwd(), "node_modules/.bin/tsc");

/** Generates the client from `document` into `dir`; its @ts-nocheck header is dropped so that tsc checks it. */
async function generateClient(document: unknown, dir: string): Promise<string> {
  const { files } = await generateApi({ spec: structuredClone(document), output: false, httpClientType: "fetch", enumStyle: "union", silent: true });
  expect(files).toHaveLength(1);
  const source = files[0]!.fileContent.replace(/^\/\/ @ts-nocheck\n/m, "");
  await writeFile(path.join(dir, `${CLIENT_FILE}.ts`), source);
  return source;
}

/** tsc's output on the files of `dir` (empty when they compile). */
async function compile(dir: string): Promise<string> {
  await writeFile(path.join(dir, "tsconfig.json"), JSON.stringify(TSCONFIG));
  try {
    await run(TSC, ["-p", dir], { cwd: dir });
    return "";
  } catch (error) {
    return String((error as { stdout?: string }).stdout ?? error);
  }
}

/** What the test sees of the program (tsc has checked the program itself). */
interface Program {
  summarize(fetchImpl: typeof fetch, apiKey: string, file: File): Promise<{ analysisId: string | null; types: string[]; blNumbers: unknown[]; invoiceTotals: unknown[]; billOfLadingPages: number[] }>;
}

let dir: string;
let client: string;

beforeAll(async () => {
  dir = await mkdtemp(path.join(tmpdir(), "shipshape-openapi-client-"));
  client = await generateClient(buildOpenApiDocument(env()), dir);
  await writeFile(path.join(dir, "program.ts"), PROGRAM);
});
afterAll(async () => {
  if (dir) await rm(dir, { recursive: true, force: true });
});

describe("a client generated from the OpenAPI document", () => {
  it("has one operation per path and one type per document type", () => {
    for (const operation of ["analyzeDocument", "compareDocuments", "getAnalysis"]) expect(client).toContain(`${operation}: (`);
    expect(client).toMatch(/export interface BillOfLading \{\n\s+split: BillOfLadingSplit;/);
    expect(client).toMatch(/export interface BillOfLadingSplit \{\n\s+document_type: "Bill of Lading";/);
  });

  it("compiles with our tsc, and the program narrows each result by its document_type", async () => {
    expect(await compile(dir)).toBe("");
  });

  it("fails to compile when a program reads an invoice's key off a bill of lading", async () => {
    const wrong = await mkdtemp(path.join(tmpdir(), "shipshape-openapi-client-wrong-"));
    try {
      await writeFile(path.join(wrong, `${CLIENT_FILE}.ts`), client);
      await writeFile(path.join(wrong, "program.ts"), PROGRAM.replace("// @ts-expect-error an invoice's total is no key of a bill of lading\n", ""));
      expect(await compile(wrong)).toMatch(/program\.ts\(\d+,\d+\): error TS2339: Property 'total_amount' does not exist/);
    } finally {
      await rm(wrong, { recursive: true, force: true });
    }
  });

  describe.each(testDatabases())("against POST /v1/documents/analyze on $name", (database) => {
    let db: Db;

    beforeAll(async () => {
      db = await database.open();
    });
    afterAll(async () => {
      if (db) await database.close(db);
    });

    it("reads the real answer through the generated client, typed per document", async () => {
      const { production } = await createTestOrganization(db);
      const handle = withApiKey(analyzeRequest, { openDb: async () => db });
      const packet = await generatePacket({ seed: 11, types: ["bill_of_lading", "commercial_invoice"], shuffle: false });
      const { summarize } = (await import(path.join(dir, "program.ts"))) as Program;
      const summary = await summarize((input, init) => handle(new Request(input, init)), production.key, new File([new Uint8Array(packet.pdf)], "presentation.pdf", { type: "application/pdf" }));

      const expected = packet.expected as { split: { document_type: string; pages: number[] }; extracted: Record<string, unknown> }[];
      expect(summary.analysisId).toMatch(/^ana_/);
      expect(summary.types).toEqual(expected.map((e) => e.split.document_type));
      const bl = expected.find((e) => e.split.document_type === "Bill of Lading")!;
      expect(summary.blNumbers).toEqual([bl.extracted.bl_number]);
      expect(summary.billOfLadingPages).toEqual(bl.split.pages);
      expect(summary.invoiceTotals).toEqual([expected.find((e) => e.split.document_type === "Commercial Invoice")!.extracted.total_amount]);
    });
  });
});
