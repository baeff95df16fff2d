import { existsSync, readdirSync } from "node:fs";
import { PassThrough } from "node:stream";
import { describe, expect, it } from "vitest";
import { readAnalyzeForm } from "@/lib/api/multipart";
import { readFilesForm } from "@/lib/api/multipart-files";
import { UploadSpool, uploadSpoolRoot } from "@/lib/api/upload-spool";
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

  it("removes everything when it is removed while parts are still being written, as a refused form is", async () => {
    // A form refused at its 21st file removes the spool while the first twenty are still opening
    // their files: a file created after the directory was listed made the removal fail (a 500).
    for (let round = 0; round < 20; round++) {
      const spool = new UploadSpool();
      const parts = Array.from({ length: 20 }, () => new PassThrough());
      const writes = parts.map((part) => spool.write(part).then(() => "written", () => "refused"));
      parts.forEach((part, i) => (i % 2 ? part.end("x") : part.write("half")));
      await expect(spool.remove()).resolves.toBeUndefined();
      // Every write has settled once removal returned: none can create a file afterwards.
      expect(await Promise.race([Promise.all(writes), new Promise((resolve) => setTimeout(resolve, 0, "pending"))])).not.toBe("pending");
      expect(spooled()).toEqual([]);
    }
  });
});
