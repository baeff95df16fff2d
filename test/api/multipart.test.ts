import { createHash } from "node:crypto";
import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Db } from "@/db/client";
import { readStoredFile } from "@/db/queries/sets-storage";
import { storedFiles } from "@/db/schema";
import { withOrganizationScope } from "@/db/scope";
import { ApiError } from "@/lib/errors";
import { MAX_URL_LENGTH, readAnalyzeForm, type AnalyzeInput } from "@/lib/api/multipart";
import { chunkedUploadSink } from "@/lib/api/upload-chunks";
import type { StoredUpload } from "@/lib/jobs";
import { createTestOrganization } from "../support/api-fixtures";
import { testDatabases } from "../support/databases";

const MAX_FILE_BYTES = 2 ** 20;

function formRequest(form: FormData): Request {
  return new Request("http://api.test/v1/documents/analyze", { method: "POST", body: form });
}

const file = (text = "%PDF-1.7") => new Blob([text], { type: "application/pdf" });

describe.each(testDatabases())("readAnalyzeForm limits (security checklist §7 row 12) on $name", (database) => {
  let db: Db;
  let organizationId: string;

  beforeAll(async () => {
    db = await database.open();
    organizationId = (await createTestOrganization(db)).organizationId;
  });
  afterAll(async () => {
    if (db) await database.close(db);
  });

  /** The form as the routes read it: its file streamed into the organization's chunked storage. */
  const read = (request: Request): Promise<AnalyzeInput<{ upload: StoredUpload }>> =>
    withOrganizationScope(organizationId, () => readAnalyzeForm(request, MAX_FILE_BYTES, chunkedUploadSink(db, organizationId)));
  const storedCount = async () => (await db.select({ key: storedFiles.storageKey }).from(storedFiles).where(eq(storedFiles.organizationId, organizationId))).length;

  async function refusal(form: FormData): Promise<{ status: number; detail: string }> {
    const before = await storedCount();
    const error = await read(formRequest(form)).then(
      () => undefined,
      (e: unknown) => e,
    );
    if (!(error instanceof ApiError)) throw new Error(`expected a refusal, got ${String(error)}`);
    // A refused form leaves nothing of its file in storage.
    expect(await storedCount()).toBe(before);
    return { status: error.status, detail: error.message };
  }

  it("reads one file with its name and declared type, held whole while it fits in one chunk (its accepting transaction stores it)", async () => {
    const form = new FormData();
    form.set("file", file(), "bl.pdf");
    const input = await read(formRequest(form));
    const bytes = new TextEncoder().encode("%PDF-1.7");
    expect(input).toMatchObject({ kind: "file", name: "bl.pdf", mimeType: "application/pdf" });
    const upload = input.kind === "file" ? input.upload : undefined;
    expect(upload).toMatchObject({ sizeBytes: bytes.length, sha256: createHash("sha256").update(bytes).digest("hex"), format: "pdf", bytes });
    const stored = await withOrganizationScope(organizationId, () => readStoredFile(db, { organizationId, storageKey: upload!.storageKey }));
    expect(stored).toBeUndefined();
  });

  it("reads a url, trimmed", async () => {
    const form = new FormData();
    form.set("url", "  https://example.com/bl.pdf ");
    expect(await read(formRequest(form))).toEqual({ kind: "url", url: "https://example.com/bl.pdf" });
  });

  it("refuses two files", async () => {
    const form = new FormData();
    form.append("file", file(), "a.pdf");
    form.append("file", file(), "b.pdf");
    expect(await refusal(form)).toEqual({ status: 400, detail: "Send one file per request." });
  });

  it("refuses a flood of fields", async () => {
    const form = new FormData();
    for (let i = 0; i < 10_000; i++) form.append("url", "https://example.com/");
    expect((await refusal(form)).status).toBe(400);
  });

  it("refuses text in the file field, and an empty or overlong url", async () => {
    const text = new FormData();
    text.set("file", "not a file");
    expect(await refusal(text)).toEqual({ status: 400, detail: "The file field must be a file upload, not text." });
    const empty = new FormData();
    empty.set("url", " ");
    expect(await refusal(empty)).toEqual({ status: 400, detail: "The url field is empty; give the document's address." });
    const long = new FormData();
    long.set("url", `https://example.com/${"a".repeat(MAX_URL_LENGTH)}`);
    expect(await refusal(long)).toEqual({ status: 400, detail: `The url is longer than ${MAX_URL_LENGTH} characters.` });
  });

  it("refuses a file one byte over the limit with 413", async () => {
    const form = new FormData();
    form.set("file", file("x".repeat(MAX_FILE_BYTES + 1)), "big.pdf");
    expect(await refusal(form)).toEqual({ status: 413, detail: "The file is larger than the 1 MB limit." });
  });

  it("refuses a multipart type without a boundary", async () => {
    const request = new Request("http://api.test/", {
      method: "POST",
      headers: { "content-type": "multipart/form-data" },
      body: "x",
    });
    const error = await read(request).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ApiError);
    expect((error as ApiError).status).toBe(400);
  });
});
