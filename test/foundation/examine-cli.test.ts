import { execFile } from "node:child_process";
import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { promisify } from "node:util";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { generatePacket } from "@/test/fixtures/generator";
import { examineFiles } from "@/lib/analysis";

const run = promisify(execFile);
const CLI = ["node_modules/.bin/tsx", "scripts/examine.ts"];

describe("npm run examine", () => {
  let dir: string;
  let pdf: Uint8Array;

  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), "examine-cli-"));
    pdf = (await generatePacket({ seed: 21, types: ["letter_of_credit", "commercial_invoice", "bill_of_lading"] })).pdf;
    await writeFile(join(dir, "set.pdf"), pdf);
  });
  afterAll(async () => rm(dir, { recursive: true, force: true }));

  it("prints exactly what examineFiles (the API's core) returns for the files", async () => {
    const { stdout } = await run(CLI[0]!, [CLI[1]!, "--presentation-date", "2030-01-01", join(dir, "set.pdf")]);
    expect(JSON.parse(stdout)).toEqual(await examineFiles([{ name: "set.pdf", bytes: pdf }], "2030-01-01"));
  });

  it("refuses a malformed presentation date and a missing file with a message", async () => {
    await expect(run(CLI[0]!, [CLI[1]!, "--presentation-date", "01/02/2030", "x.pdf"])).rejects.toMatchObject({
      code: 2, stderr: expect.stringContaining("YYYY-MM-DD"),
    });
    await expect(run(CLI[0]!, [CLI[1]!, join(dir, "missing.pdf")])).rejects.toMatchObject({ code: 1, stderr: expect.stringContaining("ENOENT") });
  });
});
