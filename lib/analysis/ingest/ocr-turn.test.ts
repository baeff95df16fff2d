import { execFile } from "node:child_process";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { createCanvas } from "@napi-rs/canvas";
import { afterAll, describe, expect, it } from "vitest";
import { isWellFormedWebp } from "./webp-structure";
import { scaleImage, turnImage } from "./ocr-turn";

/** A small text image like a scanned line, as JPEG and WebP the way encoders write them. */
async function encodedText(): Promise<{ jpeg: Uint8Array; webp: Uint8Array }> {
  const canvas = createCanvas(360, 120);
  const ctx = canvas.getContext("2d");
  ctx.fillStyle = "#fff";
  ctx.fillRect(0, 0, 360, 120);
  ctx.fillStyle = "#000";
  ctx.font = "20px sans-serif";
  ctx.fillText("COMMERCIAL INVOICE No 4471", 10, 40);
  ctx.fillText("Total USD 78,720.00", 10, 90);
  return { jpeg: new Uint8Array(await canvas.encode("jpeg", 85)), webp: new Uint8Array(await canvas.encode("webp", 85)) };
}

function pngSize(png: Uint8Array): [number, number] {
  const view = new DataView(png.buffer, png.byteOffset, png.byteLength);
  return [view.getUint32(16), view.getUint32(20)];
}

/** Damaged copies of each that crashed the canvas decoder, and with it the reader (SIGSEGV), in `npm run fuzz`. */
function damaged({ jpeg, webp }: { jpeg: Uint8Array; webp: Uint8Array }): Record<string, Uint8Array> {
  const riffSize = Buffer.from(webp);
  riffSize.writeUInt32LE(0x7f, 4);
  const truncatedWebp = webp.slice(0, Math.floor(webp.length / 3));
  const cases: Record<string, Uint8Array> = { "webp-riff-size": riffSize, "webp-truncated": truncatedWebp };
  for (const share of [0.1, 0.3, 0.5, 0.7, 0.9]) cases[`jpeg-truncated-${share}`] = jpeg.slice(0, Math.floor(jpeg.length * share));
  return cases;
}

const dir = mkdtempSync(path.join(tmpdir(), "shipshape-ocr-turn-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** Runs turnImage and scaleImage on each file in a child process: a native crash there is an exit by signal, not a thrown error. */
function decodeInChild(files: string[]): Promise<{ code: number | null; signal: string | null; stdout: string; stderr: string }> {
  const script = `import { readFileSync } from "node:fs";
import { scaleImage, turnImage } from "./lib/analysis/ingest/ocr-turn.ts";
(async () => {
  for (const file of ${JSON.stringify(files)}) {
    const bytes = new Uint8Array(readFileSync(file));
    const turned = await turnImage(bytes, 1);
    const scaled = await scaleImage(bytes, () => 0.5);
    console.log(file.split("/").pop(), turned ? "turned" : "-", scaled ? "scaled" : "-");
  }
})();`;
  return new Promise((resolve) => {
    const child = execFile(path.join(process.cwd(), "node_modules/.bin/tsx"), ["--eval", script], { cwd: process.cwd(), timeout: 60_000 }, (error, stdout, stderr) => {
      resolve({ code: child.exitCode, signal: child.signalCode ?? (error as { signal?: string } | null)?.signal ?? null, stdout, stderr });
    });
  });
}

describe("turning and scaling images for OCR", () => {
  it("turns and scales a JPEG (decoded by pdf.js) and a WebP (by canvas)", async () => {
    const { jpeg, webp } = await encodedText();
    expect(isWellFormedWebp(webp)).toBe(true);
    for (const bytes of [jpeg, webp]) {
      expect(pngSize((await turnImage(bytes, 1))!)).toEqual([120, 360]);
      expect(pngSize((await turnImage(bytes, 2))!)).toEqual([360, 120]);
      const scaled = await scaleImage(bytes, () => 0.5);
      expect(scaled?.factor).toBe(0.5);
      expect(pngSize(scaled!.bytes)).toEqual([180, 60]);
    }
  });

  it("survives damaged JPEG and WebP files that crashed the canvas decoder: they are simply not turned", async () => {
    const cases = damaged(await encodedText());
    const files = Object.entries(cases).map(([name, bytes]) => {
      const file = path.join(dir, name);
      writeFileSync(file, bytes);
      return file;
    });
    const run = await decodeInChild(files);
    expect(run.signal, run.stderr).toBeNull();
    expect(run.code, run.stderr).toBe(0);
    const lines = run.stdout.trim().split("\n");
    expect(lines.map((line) => line.split(" ")[0])).toEqual(Object.keys(cases));
    // The WebP cases lie about their own structure: never handed to the native decoder.
    expect(lines.filter((line) => line.startsWith("webp"))).toEqual(["webp-riff-size - -", "webp-truncated - -"]);
  }, 90_000);
});
