import { existsSync, readdirSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { readAnalyzeForm } from "@/lib/api/multipart";
import { readFilesForm } from "@/lib/api/multipart-files";
import { uploadSpoolRoot } from "@/lib/api/upload-spool";
import { analyzeForm, analyzeRequest } from "../support/api-fixtures";

/**
 * File parts are spooled to temporary files while the body streams and read
 * back once: the bytes arrive intact, and nothing is left in the spool after
 * the form is read, accepted or refused.
 */
function spooled(): string[] {
  const root = uploadSpoolRoot();
  return existsSync(root) ? readdirSync(root) : [];
}

const bytesOf = (size: number) => new Uint8Array(Array.from({ length: size }, (_, i) => (i * 31) % 251));

describe("upload spool", () => {
  it("reads a file back byte for byte and leaves nothing spooled", async () => {
    const bytes = bytesOf(3 * 2 ** 20 + 17);
    const input = await readAnalyzeForm(analyzeRequest(analyzeForm({ file: { bytes, name: "scan.pdf" } })), 4 * 2 ** 20);
    expect(input.kind).toBe("file");
    expect(input.kind === "file" && Buffer.compare(Buffer.from(input.bytes), Buffer.from(bytes))).toBe(0);
    expect(spooled()).toEqual([]);
  });

  it("leaves nothing spooled when a file is refused half-way for its size", async () => {
    const refusal = readAnalyzeForm(analyzeRequest(analyzeForm({ file: { bytes: bytesOf(2 * 2 ** 20), name: "big.pdf" } })), 2 ** 20);
    await expect(refusal).rejects.toThrow("The file is larger than the 1 MB limit.");
    expect(spooled()).toEqual([]);
  });

  it("reads several files in form order for compare, and leaves nothing spooled", async () => {
    const form = new FormData();
    const files = [bytesOf(70_000), bytesOf(5), bytesOf(200_000)];
    files.forEach((bytes, i) => form.append("file", new Blob([bytes]), `f${i}.pdf`));
    const read = await readFilesForm(
      new Request("http://api.test/v1/documents/compare", { method: "POST", body: form }),
      { maxFiles: 5, maxFileBytes: 2 ** 20, maxTotalBytes: 2 ** 21, fieldNames: new Set(), maxFieldLength: 10 },
      "send files",
    );
    expect(read.files.map((file) => file.name)).toEqual(["f0.pdf", "f1.pdf", "f2.pdf"]);
    read.files.forEach((file, i) => expect(Buffer.compare(Buffer.from(file.bytes), Buffer.from(files[i]!))).toBe(0));
    expect(spooled()).toEqual([]);
  });
});
