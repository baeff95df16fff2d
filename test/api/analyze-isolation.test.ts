import { rm } from "node:fs/promises";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { closeDb, openDb } from "@/db/client";
import { makePdfBomb } from "@/test/fixtures/formats/pdf-bomb";
import { makeLongScan } from "@/test/fixtures/formats/scanned-pdf";
import { analyzeForm, createTestOrganization, invoicePages, makePdf } from "../support/api-fixtures";
import { testDatabases, testDatabaseUrl, type TestDatabase } from "../support/databases";
import { freshPgliteDir } from "../support/pglite-template";
import { readRss, resetPeakRss, startServerProcess, type ServerProcess } from "../support/server-process";

/**
 * Parsing and OCR run in the isolated reader pool, tested through a separate
 * app process (the real route module over HTTP) with small caps set by its
 * environment: a long scan whose OCR outruns the processing-time budget, and
 * a PDF decompression bomb, are stopped and answered 422; the server itself
 * neither stalls nor grows, the next request is served normally, and a full
 * queue is 503 with Retry-After.
 */
const MB = 2 ** 20;
/** CPU time of a reader and its OCR: long enough for the other requests of a test to arrive while the first scan is read. */
const TIMEOUT_MS = 6_000;
const TIMEOUT_DETAIL = { detail: `Reading the file took more than ${TIMEOUT_MS / 1000} s of processing time; it was stopped.` };
const MEMORY_DETAIL = { detail: "Reading the file needed more memory than allowed; it was stopped." };
/** The bomb inflates to 1 GiB and the scan is 2 MB of images; the server must not take any of that on itself. */
const SERVER_GROWTH_LIMIT_BYTES = 200 * MB;

let bomb: Uint8Array;
let longScan: Uint8Array;
let invoice: Uint8Array;

beforeAll(async () => {
  // Three pages: about three times the budget of OCR, so the budget, not the end of the file, stops it.
  [bomb, longScan, invoice] = await Promise.all([makePdfBomb(1024), makeLongScan(3), makePdf(invoicePages())]);
});

function analyze(server: ServerProcess, key: string, bytes: Uint8Array, name: string): Promise<Response> {
  return fetch(`${server.origin}/v1/documents/analyze`, {
    method: "POST",
    headers: { "x-api-key": key },
    body: analyzeForm({ file: { bytes, name } }),
  });
}

async function expectNormalAnswer(server: ServerProcess, key: string): Promise<void> {
  const response = await analyze(server, key, invoice, "invoice.pdf");
  expect(response.status).toBe(200);
  const body = (await response.json()) as { split: { document_type: string } }[];
  expect(body.map((part) => part.split.document_type)).toEqual(["Commercial Invoice"]);
}

/** A server process on `database` (PGlite on disk handed over, or the shared PostgreSQL) and a production key. */
async function startServer(database: TestDatabase["name"], env: Record<string, string>): Promise<{ server: ServerProcess; key: string; cleanup: () => Promise<void> }> {
  if (database === "pglite") {
    const dataDir = freshPgliteDir();
    const db = await openDb({ dataDir });
    const key = (await createTestOrganization(db)).production.key;
    await closeDb(db);
    const server = await startServerProcess({ ...env, DATABASE_URL: undefined, PGLITE_DIR: dataDir });
    return { server, key, cleanup: async () => { await server.stop(); await rm(dataDir, { recursive: true, force: true }); } };
  }
  const postgresql = testDatabases().find((d) => d.name === "postgresql")!;
  const db = await postgresql.open();
  const key = (await createTestOrganization(db)).production.key;
  await postgresql.close(db);
  const server = await startServerProcess({ ...env, DATABASE_URL: testDatabaseUrl() });
  return { server, key, cleanup: () => server.stop() };
}

describe.each(testDatabases().map((d) => d.name))("isolated reading with one reader and a queue of one, on %s", (database) => {
  let server: ServerProcess;
  let key: string;
  let cleanup: (() => Promise<void>) | undefined;

  beforeAll(async () => {
    ({ server, key, cleanup } = await startServer(database, {
      ANALYSIS_WORKERS: "1",
      ANALYSIS_QUEUE_MAX: "1",
      ANALYSIS_TIMEOUT_MS: String(TIMEOUT_MS),
      // Far above what OCR of the scan takes, so that processing time is what stops it here.
      ANALYSIS_MAX_MEMORY_MB: "8192",
    }));
    await expectNormalAnswer(server, key);
  });
  afterAll(async () => cleanup?.());

  it("stops a file whose reading outruns the processing-time budget (422), without the server growing, then serves the next request", { timeout: 180_000 }, async () => {
    const before = await readRss(server.pid);
    await resetPeakRss(server.pid);
    const response = await analyze(server, key, longScan, "long-scan.pdf");
    expect(response.status).toBe(422);
    expect(await response.json()).toEqual(TIMEOUT_DETAIL);
    const after = await readRss(server.pid);
    expect(after.peak - before.rss).toBeLessThan(SERVER_GROWTH_LIMIT_BYTES);
    await expectNormalAnswer(server, key);
  });

  // Two files read one after the other until their CPU-time cap: on a busy machine each takes several times the cap on the clock.
  it("refuses a request with 503 and Retry-After when one file is being read and one waits", { timeout: 180_000 }, async () => {
    // Three at once: one is read (until its time cap), one waits, the third finds the queue full.
    const responses = await Promise.all([1, 2, 3].map((n) => analyze(server, key, longScan, `long-scan-${n}.pdf`)));
    const statuses = responses.map((r) => r.status).sort();
    expect(statuses).toEqual([422, 422, 503]);
    for (const response of responses) {
      if (response.status === 422) {
        expect(await response.json()).toEqual(TIMEOUT_DETAIL);
        continue;
      }
      const retryAfter = Number(response.headers.get("retry-after"));
      expect(Number.isInteger(retryAfter) && retryAfter >= 1).toBe(true);
      expect(await response.json()).toEqual({
        detail: `The server is reading as many documents as it can and its queue is full; retry after ${retryAfter} s.`,
      });
      // Every keyed answer still says where the key stands.
      expect(response.headers.get("ratelimit")).toMatch(/^"production";r=\d+;t=\d+$/);
    }
    await expectNormalAnswer(server, key);
  });
});

describe("isolated reading with a memory cap, on pglite", () => {
  let server: ServerProcess;
  let key: string;
  let cleanup: (() => Promise<void>) | undefined;

  beforeAll(async () => {
    // Room for a reader with the engine loaded (about 250 MB) and a normal document; a generous
    // time cap, so that memory is what stops the bomb (since PDFium, its WebAssembly memory cap, inside the reader).
    // One reader (ANALYSIS_WORKERS), as above: the cap is each reader's, and a second one costs its start (about 2 s of processor time).
    ({ server, key, cleanup } = await startServer("pglite", { ANALYSIS_WORKERS: "1", ANALYSIS_MAX_MEMORY_MB: "600", ANALYSIS_TIMEOUT_MS: "120000" }));
    await expectNormalAnswer(server, key);
  });
  afterAll(async () => cleanup?.());

  it("stops a file that inflates past the memory cap (422), then serves the next request", async () => {
    const before = await readRss(server.pid);
    await resetPeakRss(server.pid);
    const response = await analyze(server, key, bomb, "bomb.pdf");
    expect(response.status).toBe(422);
    expect(await response.json()).toEqual(MEMORY_DETAIL);
    const after = await readRss(server.pid);
    console.log(`memory-cap bomb: server peak RSS grew ${((after.peak - before.rss) / MB).toFixed(1)} MB`);
    expect(after.peak - before.rss).toBeLessThan(SERVER_GROWTH_LIMIT_BYTES);
    await expectNormalAnswer(server, key);
  });
});
