import { createHash } from "node:crypto";
import { createServer, type Server, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { asc, eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import type { Db } from "@/db/client";
import { readStoredFile, STORED_FILE_CHUNK_BYTES } from "@/db/queries/sets-storage";
import { analysisJobs, documentChunks, storedFiles } from "@/db/schema";
import { analyzeRequest } from "@/lib/api/analyze";
import { withApiKey } from "@/lib/api/handler";
import { resetUploadIntakeHighWater, uploadIntakeHighWater } from "@/lib/api/upload-chunks";
import { setUrlFetchOverridesForTests } from "@/lib/api/url-fetch";
import { resetEnvForTests } from "@/lib/env";
import { analyzeForm, analyzeRequest as request, createTestOrganization, type TestOrganization } from "../support/api-fixtures";
import { testDatabases } from "../support/databases";
import { pdfOf } from "../support/streamed-form";

/**
 * A document fetched for a `url` input streams into chunked storage as it
 * arrives, as an upload does: a document of several chunks is in storage
 * before its last bytes have left the origin, and the intake holds one chunk
 * at most. One over the size limit, or cut off mid-body, leaves no chunk.
 */
const MAX_UPLOAD_MB = 8;
const MB = 2 ** 20;
const PIECE_BYTES = 64 * 1024;
const DOCUMENT = pdfOf(3 * STORED_FILE_CHUNK_BYTES + 321);

/**
 * Called once before the origin sends the piece that holds byte `probeAt` of
 * a document (which waits until then); what it returns is kept in `probed`.
 */
let probe: (() => Promise<number>) | undefined;
let probed: number | undefined;
let server: Server;
let origin: string;

/** Sends `bytes` in pieces with no Content-Length (chunked), each after the one before has drained; `cutAt` destroys the socket there. */
async function sendPieces(res: ServerResponse, bytes: Uint8Array, options: { probeAt: number; cutAt?: number }): Promise<void> {
  res.writeHead(200, { "content-type": "application/pdf" });
  for (let offset = 0; offset < bytes.length; offset += PIECE_BYTES) {
    if (options.cutAt !== undefined && offset >= options.cutAt) return void res.destroy();
    const end = Math.min(offset + PIECE_BYTES, bytes.length);
    if (end > options.probeAt && probe) {
      probed = await probe();
      probe = undefined;
    }
    if (!res.write(bytes.subarray(offset, end))) await new Promise((resolve) => res.once("drain", resolve));
  }
  res.end();
}

beforeAll(async () => {
  vi.stubEnv("MAX_UPLOAD_MB", String(MAX_UPLOAD_MB));
  // Jobs are only queued here: no reader reads these files.
  vi.stubEnv("ANALYSIS_IN_PROCESS_WORKER", "false");
  resetEnvForTests();
  server = createServer((req, res) => {
    // Probed before the last piece, or mid-way for the documents that are refused before their end.
    if (req.url === "/document.pdf") void sendPieces(res, DOCUMENT, { probeAt: DOCUMENT.length - 1 });
    else if (req.url === "/over.pdf") void sendPieces(res, pdfOf((MAX_UPLOAD_MB + 1) * MB), { probeAt: 3 * MB });
    else if (req.url === "/cut.pdf") void sendPieces(res, pdfOf(4 * MB), { probeAt: 2 * MB, cutAt: 2 * MB + PIECE_BYTES });
    else res.writeHead(404).end();
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  setUrlFetchOverridesForTests({ trustedOrigin: origin });
});
afterAll(async () => {
  setUrlFetchOverridesForTests({});
  await new Promise((resolve) => server.close(resolve));
  vi.unstubAllEnvs();
  resetEnvForTests();
});

describe.each(testDatabases())("documents fetched for a url, streamed into chunked storage on $name", (database) => {
  let db: Db;
  let org: TestOrganization;
  let handle: (request: Request) => Promise<Response>;

  beforeAll(async () => {
    db = await database.open();
    org = await createTestOrganization(db);
    handle = withApiKey(analyzeRequest, { openDb: async () => db });
  });
  afterAll(async () => {
    if (db) await database.close(db);
  });

  const storageOf = async () => ({
    files: (await db.select({ key: storedFiles.storageKey }).from(storedFiles).where(eq(storedFiles.organizationId, org.organizationId))).length,
    chunks: (await db.select({ key: documentChunks.storageKey }).from(documentChunks).where(eq(documentChunks.organizationId, org.organizationId))).length,
  });
  /**
   * Posts the url of one of the origin's documents. Mid-way the origin waits
   * for `chunks` of it to be stored (the socket's buffers hold megabytes the
   * fetcher has not read yet; a fetcher that holds the body whole never
   * stores any before its end, and the origin gives up waiting after 20 s).
   */
  const post = async (path: string, chunks: number) => {
    probed = undefined;
    const before = (await storageOf()).chunks;
    probe = async () => {
      for (let waited = 0; waited < 20_000; waited += 20) {
        if ((await storageOf()).chunks - before >= chunks) break;
        await new Promise((resolve) => setTimeout(resolve, 20));
      }
      return (await storageOf()).chunks;
    };
    return handle(request(analyzeForm({ url: `${origin}${path}` }), { key: org.production.key, headers: { prefer: "respond-async" } })).finally(() => (probe = undefined));
  };

  it("stores a document of several chunks as it arrives, one chunk held at a time, and reads it back byte for byte", { timeout: 120_000 }, async () => {
    const before = await storageOf();
    resetUploadIntakeHighWater();
    const response = await post("/document.pdf", 3);
    expect(response.status).toBe(202);
    // Before the origin sent its last piece, the first three chunks were in the database.
    expect(probed! - before.chunks).toBeGreaterThanOrEqual(3);
    const highWater = uploadIntakeHighWater();
    expect(highWater).toBeGreaterThan(0);
    expect(highWater).toBeLessThanOrEqual(STORED_FILE_CHUNK_BYTES);

    const [job] = await db.select().from(analysisJobs).where(eq(analysisJobs.id, response.headers.get("x-analysis-id")!));
    expect(job).toMatchObject({ inputName: `${origin}/document.pdf`, inputBytes: DOCUMENT.length, sha256: createHash("sha256").update(DOCUMENT).digest("hex") });
    const chunks = await db
      .select({ index: documentChunks.chunkIndex, bytes: documentChunks.bytes })
      .from(documentChunks)
      .where(eq(documentChunks.storageKey, job!.storageKey))
      .orderBy(asc(documentChunks.chunkIndex));
    expect(chunks.map((chunk) => [chunk.index, chunk.bytes.length])).toEqual([
      [0, STORED_FILE_CHUNK_BYTES],
      [1, STORED_FILE_CHUNK_BYTES],
      [2, STORED_FILE_CHUNK_BYTES],
      [3, 321],
    ]);
    const read = await readStoredFile(db, { organizationId: org.organizationId, storageKey: job!.storageKey });
    expect(Buffer.compare(Buffer.from(read!), Buffer.from(DOCUMENT))).toBe(0);
  });

  it("413 for a document over the limit, cut as it streams, and 422 for one cut off: what was stored of them is removed", { timeout: 120_000 }, async () => {
    const before = await storageOf();
    const over = await post("/over.pdf", 2);
    expect(over.status).toBe(413);
    expect(await over.json()).toEqual({ detail: `The document at the url is larger than ${MAX_UPLOAD_MB} MB.` });
    // Three megabytes in, its first chunks were stored.
    expect(probed! - before.chunks).toBeGreaterThanOrEqual(2);
    expect(await storageOf()).toEqual(before);

    const cut = await post("/cut.pdf", 1);
    expect(cut.status).toBe(422);
    expect(((await cut.json()) as { detail: string }).detail).toMatch(/^Could not fetch the url: /);
    expect(probed! - before.chunks).toBeGreaterThanOrEqual(1);
    expect(await storageOf()).toEqual(before);
  });
});
