import { createHash } from "node:crypto";
import { and, asc, eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import type { Db } from "@/db/client";
import { readStoredFile, STORED_FILE_CHUNK_BYTES } from "@/db/queries/sets-storage";
import { analysisJobs, documentChunks, storedFiles } from "@/db/schema";
import { analyzeRequest } from "@/lib/api/analyze";
import { withApiKey } from "@/lib/api/handler";
import { resetUploadIntakeHighWater, sweepAbandonedUploads, uploadIntakeHighWater } from "@/lib/api/upload-chunks";
import { resetEnvForTests } from "@/lib/env";
import { beginUploadHoursAgo } from "../support/abandoned-uploads";
import { createTestOrganization, type TestOrganization } from "../support/api-fixtures";
import { testDatabases } from "../support/databases";
import { pdfOf, streamedForm, streamedRequest, type StreamedForm, type StreamOptions } from "../support/streamed-form";

/**
 * Uploads stream into chunked storage (document_chunks) as the body arrives:
 * through the real analyze route, a file of several chunks is stored chunk by
 * chunk while the client is still sending, comes back byte for byte, and the
 * intake never holds more than one chunk of it. A body refused for its size
 * or its format, or cut off mid-way, leaves no chunk and no stored file.
 */
const MAX_UPLOAD_MB = 8;
const MB = 2 ** 20;

beforeAll(() => {
  vi.stubEnv("MAX_UPLOAD_MB", String(MAX_UPLOAD_MB));
  // Jobs are only queued here: no reader reads these files.
  vi.stubEnv("ANALYSIS_IN_PROCESS_WORKER", "false");
  resetEnvForTests();
});
afterAll(() => {
  vi.unstubAllEnvs();
  resetEnvForTests();
});

/** The analyze form of one streamed file (see streamedForm; `probe` looks at storage before its last piece). */
function fileForm(file: Uint8Array, options: StreamOptions = {}): StreamedForm {
  return streamedForm([{ field: "file", name: "big.pdf", bytes: file, type: "application/pdf" }], options);
}

function postForm(key: string, body: ReadableStream<Uint8Array>, headers: Record<string, string> = {}): Request {
  return streamedRequest("http://api.test/v1/documents/analyze", key, body, headers);
}

describe.each(testDatabases())("uploads streamed into chunked storage on $name", (database) => {
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

  const chunksOf = async (organizationId = org.organizationId) =>
    (await db.select({ key: documentChunks.storageKey }).from(documentChunks).where(eq(documentChunks.organizationId, organizationId))).length;
  const filesOf = async () => (await db.select({ key: storedFiles.storageKey }).from(storedFiles).where(eq(storedFiles.organizationId, org.organizationId))).length;

  it("stores a file of several chunks as it arrives, holding one chunk at most, and reads it back byte for byte", { timeout: 120_000 }, async () => {
    const file = pdfOf(5 * STORED_FILE_CHUNK_BYTES + 12_345);
    const chunksBefore = await chunksOf();
    resetUploadIntakeHighWater();
    const streamed = fileForm(file, { probe: chunksOf });
    const response = await handle(postForm(org.production.key, streamed.body, { prefer: "respond-async" }));
    expect(response.status).toBe(202);
    const jobId = response.headers.get("x-analysis-id")!;

    // While the client was still sending its last piece, most of the file was in the database already
    // (the fifth chunk may still be on its way: the parser holds a little ahead of the store).
    expect((await streamed.probed!) - chunksBefore).toBeGreaterThanOrEqual(4);
    // The intake held one chunk at most at any moment: never the 5 MB body.
    const highWater = uploadIntakeHighWater();
    console.log(`${database.name}: ${(file.length / MB).toFixed(2)} MB upload, intake high-water ${(highWater / MB).toFixed(2)} MB`);
    expect(highWater).toBeGreaterThan(0);
    expect(highWater).toBeLessThanOrEqual(STORED_FILE_CHUNK_BYTES);

    const [job] = await db.select().from(analysisJobs).where(eq(analysisJobs.id, jobId));
    expect(job).toMatchObject({ inputBytes: file.length, sha256: createHash("sha256").update(file).digest("hex") });
    const chunks = await db
      .select({ index: documentChunks.chunkIndex, bytes: documentChunks.bytes, organizationId: documentChunks.organizationId })
      .from(documentChunks)
      .where(eq(documentChunks.storageKey, job!.storageKey))
      .orderBy(asc(documentChunks.chunkIndex));
    expect(chunks.map((chunk) => [chunk.index, chunk.bytes.length, chunk.organizationId])).toEqual([
      ...[0, 1, 2, 3, 4].map((index) => [index, STORED_FILE_CHUNK_BYTES, org.organizationId]),
      [5, 12_345, org.organizationId],
    ]);
    const [record] = await db.select().from(storedFiles).where(eq(storedFiles.storageKey, job!.storageKey));
    expect(record).toMatchObject({ sizeBytes: file.length, sha256: job!.sha256 });
    expect(record!.receivedAt).toBeInstanceOf(Date);

    const read = await readStoredFile(db, { organizationId: org.organizationId, storageKey: job!.storageKey });
    expect(Buffer.compare(Buffer.from(read!), Buffer.from(file))).toBe(0);
    // Another organization's scope never reads it.
    const other = await createTestOrganization(db);
    expect(await readStoredFile(db, { organizationId: other.organizationId, storageKey: job!.storageKey })).toBeUndefined();
  });

  it("a damaged or missing chunk is an error when the file is read back, never other bytes", async () => {
    const file = pdfOf(2 * STORED_FILE_CHUNK_BYTES + 7);
    const response = await handle(postForm(org.production.key, fileForm(file).body, { prefer: "respond-async" }));
    expect(response.status).toBe(202);
    const [job] = await db.select().from(analysisJobs).where(eq(analysisJobs.id, response.headers.get("x-analysis-id")!));
    const key = { organizationId: org.organizationId, storageKey: job!.storageKey };
    const where = and(eq(documentChunks.storageKey, key.storageKey), eq(documentChunks.chunkIndex, 1));
    await db.update(documentChunks).set({ bytes: new Uint8Array(STORED_FILE_CHUNK_BYTES) }).where(where);
    await expect(readStoredFile(db, key)).rejects.toThrow(/does not match its record/);
    await db.delete(documentChunks).where(where);
    await expect(readStoredFile(db, key)).rejects.toThrow(/lacks chunk 1/);
  });

  it("413 for a file over the limit, refused as it streams: no chunk and no stored file is left", { timeout: 120_000 }, async () => {
    const [chunksBefore, filesBefore] = [await chunksOf(), await filesOf()];
    const response = await handle(postForm(org.production.key, fileForm(pdfOf((MAX_UPLOAD_MB + 2) * MB)).body));
    expect(response.status).toBe(413);
    expect(await response.json()).toEqual({ detail: `The file is larger than the ${MAX_UPLOAD_MB} MB limit.` });
    expect([await chunksOf(), await filesOf()]).toEqual([chunksBefore, filesBefore]);
  });

  it("400 for a body that breaks off or ends mid-file: no chunk and no stored file is left", { timeout: 120_000 }, async () => {
    const [chunksBefore, filesBefore] = [await chunksOf(), await filesOf()];
    const file = pdfOf(4 * MB);
    const cut = await handle(postForm(org.production.key, fileForm(file, { cutAfter: Math.floor(2.5 * MB) }).body));
    expect(cut.status).toBe(400);
    expect(await cut.json()).toEqual({ detail: "The request body broke off before its end; send the whole form again." });
    const ended = await handle(postForm(org.production.key, fileForm(file, { endEarly: Math.floor(2.5 * MB) }).body));
    expect(ended.status).toBe(400);
    expect(await ended.json()).toEqual({ detail: "The multipart body is malformed (Unexpected end of form)." });
    expect([await chunksOf(), await filesOf()]).toEqual([chunksBefore, filesBefore]);
  });

  it("415 for a file of several chunks that is no format we read, sniffed as it streamed: nothing is left", { timeout: 120_000 }, async () => {
    const [chunksBefore, filesBefore] = [await chunksOf(), await filesOf()];
    const file = pdfOf(3 * MB);
    file.set(new TextEncoder().encode("not a pdf"), 0);
    const response = await handle(postForm(org.production.key, fileForm(file).body));
    expect(response.status).toBe(415);
    expect([await chunksOf(), await filesOf()]).toEqual([chunksBefore, filesBefore]);
  });

  it("tells a DOCX by the name of its document part in a later chunk, as sniffFormat does on the whole file", { timeout: 120_000 }, async () => {
    // A ZIP whose word/document.xml is named past the first chunk, across the seam of two chunks.
    const file = pdfOf(2 * STORED_FILE_CHUNK_BYTES + 100);
    file.set([0x50, 0x4b, 0x03, 0x04], 0);
    file.set(new TextEncoder().encode("word/document.xml"), 2 * STORED_FILE_CHUNK_BYTES - 8);
    const response = await handle(postForm(org.production.key, fileForm(file).body, { prefer: "respond-async" }));
    // Declared application/pdf, sniffed DOCX: the declared type is checked against what streamed.
    expect(response.status).toBe(415);
    expect(await response.json()).toEqual({ detail: "The file is sent as application/pdf but its bytes are DOCX; send the document with its real type." });
  });

  it("an upload its process left unreceived (killed mid-body) is swept at start once it is 6 hours old, with its chunks", async () => {
    const [abandoned, arriving] = [await beginUploadHoursAgo(db, org.organizationId, 7), await beginUploadHoursAgo(db, org.organizationId, 1)];
    const received = (await db.select({ storageKey: analysisJobs.storageKey }).from(analysisJobs).where(eq(analysisJobs.organizationId, org.organizationId)))[0]!.storageKey;
    await db.update(storedFiles).set({ createdAt: new Date(Date.now() - 7 * 3600_000) }).where(eq(storedFiles.storageKey, received));

    expect(await sweepAbandonedUploads(db)).toBeGreaterThanOrEqual(1);
    const left = async (storageKey: string) =>
      [
        (await db.select().from(storedFiles).where(eq(storedFiles.storageKey, storageKey))).length,
        (await db.select({ index: documentChunks.chunkIndex }).from(documentChunks).where(eq(documentChunks.storageKey, storageKey))).length > 0,
      ];
    expect(await left(abandoned)).toEqual([0, false]);
    // Still arriving (an hour is a slow upload, not a dead one), and one a job accepted long ago: both kept.
    expect(await left(arriving)).toEqual([1, true]);
    expect(await left(received)).toEqual([1, true]);
  });
});
