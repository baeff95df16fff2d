import { describe, expect, it } from "vitest";
import { ApiError } from "@/lib/errors";
import { MAX_URL_LENGTH, readAnalyzeForm } from "@/lib/api/multipart";

const MAX_FILE_BYTES = 2 ** 20;

function formRequest(form: FormData): Request {
  return new Request("http://api.test/v1/documents/analyze", { method: "POST", body: form });
}

async function refusal(form: FormData): Promise<{ status: number; detail: string }> {
  const error = await readAnalyzeForm(formRequest(form), MAX_FILE_BYTES).then(
    () => undefined,
    (e: unknown) => e,
  );
  if (!(error instanceof ApiError)) throw new Error(`expected a refusal, got ${String(error)}`);
  return { status: error.status, detail: error.message };
}

const file = (text = "%PDF-1.7") => new Blob([text], { type: "application/pdf" });

describe("readAnalyzeForm limits (security checklist §7 row 12)", () => {
  it("reads one file with its name and declared type", async () => {
    const form = new FormData();
    form.set("file", file(), "bl.pdf");
    const input = await readAnalyzeForm(formRequest(form), MAX_FILE_BYTES);
    expect(input).toEqual({ kind: "file", name: "bl.pdf", bytes: new TextEncoder().encode("%PDF-1.7"), mimeType: "application/pdf" });
  });

  it("reads a url, trimmed", async () => {
    const form = new FormData();
    form.set("url", "  https://example.com/bl.pdf ");
    expect(await readAnalyzeForm(formRequest(form), MAX_FILE_BYTES)).toEqual({ kind: "url", url: "https://example.com/bl.pdf" });
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
    const error = await readAnalyzeForm(request, MAX_FILE_BYTES).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ApiError);
    expect((error as ApiError).status).toBe(400);
  });
});
