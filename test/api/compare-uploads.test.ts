import { eq } from "drizzle-orm";
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from "vitest";
import type { Db } from "@/db/client";
import { STORED_FILE_CHUNK_BYTES } from "@/db/queries/sets-storage";
import { documentChunks, storedFiles } from "@/db/schema";
import { compareRequest, MAX_COMPARE_FILES } from "@/lib/api/compare";
import { withApiKey } from "@/lib/api/handler";
import { resetUploadIntakeHighWater, uploadIntakeHighWater } from "@/lib/api/upload-chunks";
import { resetEnvForTests } from "@/lib/env";
import { createTestOrganization, type TestOrganization } from "../support/api-fixtures";
import { testDatabases } from "../support/databases";
import { pdfOf, streamedForm, streamedRequest, type FormPart, type StreamOptions } from "../support/streamed-form";

/**
 * Compare's files stream into chunked storage as the body arrives, one chunk
 * in memory at a time, as analyze's file does; a compare refused after its
 * files were stored (400, 413, 415, 422, 429, or a body cut off) leaves none
 * of them behind. Each case looks at storage while the body is still
 * arriving (files already stored) and after the answer (nothing left).
 * The accepted path, with jobs that read the files back, is in compare.test.ts.
 */
const MAX_UPLOAD_MB = 8;
const MB = 2 ** 20;
const COMPARE_URL = "http://api.test/v1/documents/compare";

beforeAll(() => {
  vi.stubEnv("MAX_UPLOAD_MB", String(MAX_UPLOAD_MB));
  // Nothing here is accepted; no reader is needed.
  vi.stubEnv("ANALYSIS_IN_PROCESS_WORKER", "false");
  resetEnvForTests();
});
afterAll(() => {
  vi.unstubAllEnvs();
  resetEnvForTests();
});

const file = (name: string, bytes: Uint8Array, type = "application/pdf"): FormPart => ({ field: "file", name, bytes, type });

describe.each(testDatabases())("compare's files streamed into chunked storage on $name", (database) => {
  let db: Db;
  let handle: (request: Request) => Promise<Response>;

  beforeAll(async () => {
    db = await database.open();
    handle = withApiKey(compareRequest, { openDb: async () => db });
  });
  afterAll(async () => {
    if (db) await database.close(db);
  });
  afterEach(() => {
    vi.unstubAllEnvs();
    vi.stubEnv("MAX_UPLOAD_MB", String(MAX_UPLOAD_MB));
    vi.stubEnv("ANALYSIS_IN_PROCESS_WORKER", "false");
    resetEnvForTests();
  });

  /** Stored files and chunks of the organization (stored files count the files of one chunk). */
  const storageOf = async (org: TestOrganization) => {
    const files = await db.select({ key: storedFiles.storageKey }).from(storedFiles).where(eq(storedFiles.organizationId, org.organizationId));
    const chunks = await db.select({ key: documentChunks.storageKey }).from(documentChunks).where(eq(documentChunks.organizationId, org.organizationId));
    return { files: files.length, chunks: chunks.length };
  };

  /**
   * Sends the form streamed (probing storage at `probeAt`, or before its last piece) and returns the
   * answer, what storage held mid-body, and what it holds after.
   */
  async function compare(org: TestOrganization, parts: FormPart[], options: StreamOptions & { key?: string; storedAtLeast?: number } = {}) {
    resetUploadIntakeHighWater();
    // The client holds its next piece while the probe waits (up to 30 s) for what was sent so far to be
    // stored: on a loaded machine the server may still be storing parts the client sent long before.
    const stored = () => storageOf(org).then((s) => s.files * 1000 + s.chunks);
    const probe = async () => {
      const until = Date.now() + 30_000;
      let now = await stored();
      while (now < (options.storedAtLeast ?? 0) && Date.now() < until) {
        await new Promise((resolve) => setTimeout(resolve, 50));
        now = await stored();
      }
      return now;
    };
    const streamed = streamedForm(parts, { ...options, probe });
    const response = await handle(streamedRequest(COMPARE_URL, options.key ?? org.production.key, streamed.body));
    const midBody = streamed.probed === undefined ? undefined : await streamed.probed;
    return { status: response.status, body: (await response.json()) as { detail: string }, midBody, after: await storageOf(org) };
  }

  it("415: three files, two of several chunks, are stored as they arrive (one chunk held at a time); the refusal leaves none", { timeout: 120_000 }, async () => {
    const org = await createTestOrganization(db);
    const text = new TextEncoder().encode("not a document");
    const parts = [file("credit.pdf", pdfOf(2 * MB + 5)), file("invoice.pdf", pdfOf(3 * MB + 7)), file("notes.txt", text, "text/plain")];
    const { status, body, midBody, after } = await compare(org, parts, { storedAtLeast: 2 * 1000 + 5 });
    expect(status).toBe(415);
    expect(body.detail).toMatch(/^notes\.txt: The document is not a format we read/);
    // Before the last piece left the client, both large files were in storage: the first whole (3 chunks),
    // the second but its last megabyte or so (its end is in that piece).
    expect(midBody).toBeGreaterThanOrEqual(2 * 1000 + 5);
    const highWater = uploadIntakeHighWater();
    console.log(`${database.name}: compare of 5.01 MB in 3 files, intake high-water ${(highWater / MB).toFixed(2)} MB`);
    expect(highWater).toBeGreaterThan(0);
    expect(highWater).toBeLessThanOrEqual(STORED_FILE_CHUNK_BYTES);
    expect(after).toEqual({ files: 0, chunks: 0 });
  });

  it("413: a file over the per-file limit after one already stored; nothing is left", { timeout: 120_000 }, async () => {
    const org = await createTestOrganization(db);
    const parts = [file("credit.pdf", pdfOf(2 * MB)), file("huge.pdf", pdfOf((MAX_UPLOAD_MB + 1) * MB))];
    // Probed early in the second file: the first is stored by then.
    const { status, body, midBody, after } = await compare(org, parts, { probeAt: 3 * MB, storedAtLeast: 1 * 1000 + 2 });
    expect([status, body]).toEqual([413, { detail: `huge.pdf is larger than the ${MAX_UPLOAD_MB} MB limit per file.` }]);
    expect(midBody).toBeGreaterThanOrEqual(1 * 1000 + 2);
    expect(after).toEqual({ files: 0, chunks: 0 });
  });

  it(`400: a ${MAX_COMPARE_FILES + 1}st file, after ${MAX_COMPARE_FILES} stored; and a body cut off mid-file: nothing is left`, { timeout: 120_000 }, async () => {
    const org = await createTestOrganization(db);
    const many = Array.from({ length: MAX_COMPARE_FILES + 1 }, (_, i) => file(`f${i}.pdf`, pdfOf(40_000 + i)));
    // Probed three quarters in: the 21st part, refused, comes later.
    const flood = await compare(org, many, { probeAt: 600_000, storedAtLeast: 10 * 1000 + 10 });
    expect([flood.status, flood.body]).toEqual([400, { detail: `Send at most ${MAX_COMPARE_FILES} files per request.` }]);
    expect(flood.midBody).toBeGreaterThanOrEqual(10 * 1000 + 10);
    expect(flood.after).toEqual({ files: 0, chunks: 0 });

    const cut = await compare(org, [file("credit.pdf", pdfOf(2 * MB)), file("invoice.pdf", pdfOf(2 * MB))], { probeAt: 3 * MB - 1, cutAfter: 3 * MB, storedAtLeast: 1 * 1000 + 2 });
    expect([cut.status, cut.body]).toEqual([400, { detail: "The request body broke off before its end; send the whole form again." }]);
    expect(cut.midBody).toBeGreaterThanOrEqual(1 * 1000 + 2);
    expect(cut.after).toEqual({ files: 0, chunks: 0 });
  });

  it("422: an empty file among stored ones; nothing is left", { timeout: 120_000 }, async () => {
    const org = await createTestOrganization(db);
    const { status, body, midBody, after } = await compare(org, [file("credit.pdf", pdfOf(2 * MB + 500_000)), file("empty.pdf", new Uint8Array(0))], { storedAtLeast: 1 * 1000 + 2 });
    expect([status, body]).toEqual([422, { detail: "empty.pdf: The document is empty (0 bytes)." }]);
    expect(midBody).toBeGreaterThanOrEqual(1 * 1000 + 2);
    expect(after).toEqual({ files: 0, chunks: 0 });
  });

  it("429: files over the rate limit, and over the organization's cap on jobs, once stored; nothing is left", { timeout: 120_000 }, async () => {
    vi.stubEnv("RATE_LIMIT_SANDBOX", "3");
    vi.stubEnv("ANALYSIS_ORG_MAX_JOBS", "2");
    resetEnvForTests();
    const org = await createTestOrganization(db);
    const parts = [1, 2, 3, 4].map((n) => file(`invoice-${n}.pdf`, pdfOf(MB + n)));
    const limited = await compare(org, parts, { key: org.sandbox.key, storedAtLeast: 3 * 1000 + 6 });
    expect(limited.status).toBe(429);
    expect(limited.body.detail).toMatch(/^A compare counts each file against the rate limit: 4 files exceed/);
    expect(limited.midBody).toBeGreaterThanOrEqual(3 * 1000 + 6);
    expect(limited.after).toEqual({ files: 0, chunks: 0 });

    const busy = await compare(org, parts.slice(0, 3), { storedAtLeast: 2 * 1000 + 4 });
    expect(busy.status).toBe(429);
    expect(busy.body.detail).toMatch(/^This organization already has 2 documents waiting or being read/);
    expect(busy.midBody).toBeGreaterThanOrEqual(2 * 1000 + 4);
    expect(busy.after).toEqual({ files: 0, chunks: 0 });
  });
});
