import { execFile } from "node:child_process";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { crc32 } from "node:zlib";
import { createCanvas, loadImage } from "@napi-rs/canvas";
import { describe, expect, it } from "vitest";
import { OCR_TEST_TIMEOUT_MS, makeMultiPageTiff, makeTextPdf, rasterisePdf, wordRecall, wordsOf } from "@/test/fixtures/formats/scan-fixtures";
import { INVOICE_LINES } from "@/test/fixtures/formats/sample-text";
import { AnalysisError } from "../errors";
import type { Page } from "../types";
import { ingestImage } from "./image";
import { readImageFrames } from "./image-header";
import { resolveLimits } from "./limits";
import { scaleImage, turnImage } from "./ocr-turn";

/** Short pages keep OCR cheap: the machine's two cores are shared. */
const SHORT_PAGE = INVOICE_LINES.slice(0, 5);
const SECOND_PAGE = ["PACKING LIST", "Packing List No: PL-7781", "Cartons: 320 Gross Weight: 8,400 KGS"];

function read(page: Page): string[] {
  return page.lines.flatMap((l) => l.words.map((w) => w.text));
}

/** A PNG chunk: length, type, data, CRC. */
function pngChunk(type: string, data: Uint8Array = new Uint8Array(0)): Buffer {
  const body = Buffer.concat([Buffer.from(type, "latin1"), data]);
  const framed = Buffer.alloc(body.length + 8);
  framed.writeUInt32BE(data.length, 0);
  body.copy(framed, 4);
  framed.writeUInt32BE(crc32(body), body.length + 4);
  return framed;
}

const PNG_SIGNATURE = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);

/** A PNG that is a signature, an IHDR chunk and an empty IDAT: the header any decoder would trust. */
function pngHeader(width: number, height: number): Uint8Array {
  const ihdr = Buffer.alloc(13);
  ihdr.writeUInt32BE(width, 0);
  ihdr.writeUInt32BE(height, 4);
  ihdr.set([8, 0, 0, 0, 0], 8);
  return new Uint8Array(Buffer.concat([PNG_SIGNATURE, pngChunk("IHDR", ihdr), pngChunk("IDAT")]));
}

/** Reads each file with ingestImage in a child process: a native crash there is an exit by signal, not a thrown error. */
function ingestInChild(files: string[]): Promise<{ signal: string | null; stdout: string; stderr: string }> {
  const script = `import { readFileSync } from "node:fs";
import { ingestImage } from "./lib/analysis/ingest/image.ts";
(async () => {
  for (const file of ${JSON.stringify(files)}) {
    const outcome = await ingestImage(new Uint8Array(readFileSync(file)), "png").then((pages) => pages.length + " pages", (error) => error.code);
    console.log(file.split("/").pop(), outcome);
  }
})();`;
  return new Promise((resolve) => {
    const child = execFile(path.join(process.cwd(), "node_modules/.bin/tsx"), ["--eval", script], { cwd: process.cwd(), timeout: 60_000 }, (error, stdout, stderr) => {
      resolve({ signal: child.signalCode ?? (error as { signal?: string } | null)?.signal ?? null, stdout, stderr });
    });
  });
}

describe("image headers", () => {
  it("refuses a PNG whose header claims 50,000 × 50,000 pixels before decoding it", () => {
    const limits = resolveLimits();
    let error: unknown;
    try {
      readImageFrames(pngHeader(50_000, 50_000), "png", limits);
    } catch (e) {
      error = e;
    }
    expect(error).toBeInstanceOf(AnalysisError);
    expect((error as AnalysisError).code).toBe("limit_exceeded");
    expect((error as AnalysisError).message).toContain("maximum pixels per image");
    expect((error as AnalysisError).message).toContain("50000×50000");
  });

  it("refuses it through ingestImage too, without running OCR", async () => {
    await expect(ingestImage(pngHeader(50_000, 50_000), "png")).rejects.toMatchObject({ code: "limit_exceeded" });
  });

  it("reads sizes and resolutions of PNG, JPEG and TIFF frames", async () => {
    const pdf = await makeTextPdf([{ lines: SECOND_PAGE }]);
    const [png] = await rasterisePdf(pdf, { dpi: 100, format: "png" });
    const [jpeg] = await rasterisePdf(pdf, { dpi: 100, format: "jpeg" });
    const limits = resolveLimits();
    // A4 at 100 dpi is 826.8 × 1169.3 pixels; pdftoppm rounds up.
    const a4At100 = { width: expect.closeTo(827, -1), height: expect.closeTo(1169, -1) };
    expect(readImageFrames(png!, "png", limits)).toEqual([{ ...a4At100, dpi: 100 }]);
    expect(readImageFrames(jpeg!, "jpeg", limits)).toEqual([{ ...a4At100, dpi: 100 }]);
    const pgm = await rasterisePdf(await makeTextPdf([{ lines: SHORT_PAGE }, { lines: SECOND_PAGE }]), { dpi: 50, format: "pgm" });
    const tiff = makeMultiPageTiff(pgm, 50);
    expect(readImageFrames(tiff, "tiff", limits)).toEqual([
      { width: 414, height: 585, dpi: 50 },
      { width: 414, height: 585, dpi: 50 },
    ]);
    expect(() => readImageFrames(tiff, "tiff", resolveLimits({ maxPages: 1 }))).toThrow(/maximum pages/);
  });

  it("refuses a strip within the pixel cap by its aspect ratio: 1200 × 33,333 would become 171 MP once enlarged for OCR", async () => {
    await expect(ingestImage(pngHeader(1200, 33_333), "png")).rejects.toMatchObject({
      code: "limit_exceeded",
      message: expect.stringContaining("maximum aspect ratio of an image limit of 10"),
    });
  });

  it("refuses an image whose long side is over the side cap though its pixels and ratio are within theirs", () => {
    expect(() => readImageFrames(pngHeader(17_000, 2_000), "png", resolveLimits())).toThrow(/maximum pixels along an image's side limit of 16384/);
  });

  it.each([
    ["compression method 4", 26, 4],
    ["filter method 1", 27, 1],
    ["interlace method 2", 28, 2],
    ["bit depth 3", 24, 3],
    ["colour type 5", 25, 5],
  ])("refuses a PNG whose header has %s as unreadable, before a decoder sees it (the canvas decoder crashed the process on the first)", async (_what, at, value) => {
    const png = pngHeader(360, 120);
    png[at] = value;
    await expect(ingestImage(png, "png")).rejects.toMatchObject({ code: "unreadable", message: "The PNG image header is damaged." });
  });

  it("says a truncated header is unreadable", () => {
    expect(() => readImageFrames(pngHeader(10, 10).subarray(0, 20), "png", resolveLimits())).toThrow(AnalysisError);
  });

  it("refuses PNGs whose chunks before the image data make libpng fail, before the canvas decoder (which crashed the reader on each) sees them", async () => {
    const canvas = createCanvas(360, 120);
    canvas.getContext("2d").fillRect(10, 10, 100, 20);
    const png = Buffer.from(await canvas.encode("png"));
    const afterIhdr = png.subarray(33);
    const idat = png.indexOf("IDAT") - 4;
    const withChunk = (chunk: Buffer) => Buffer.concat([png.subarray(0, 33), chunk, afterIhdr]);
    const damaged: Record<string, Uint8Array> = {
      // Cut inside the chunk before IDAT, and inside IDAT's own length and type (68 bytes in `npm run fuzz`).
      "cut before IDAT": png.subarray(0, idat - 3),
      "cut in IDAT's type": png.subarray(0, idat + 6),
      // png-1-354 in `npm run fuzz`: a bit flip made IHDR "MHDR".
      "IHDR renamed": Buffer.concat([png.subarray(0, 12), Buffer.from("MHDR"), png.subarray(16)]),
      "IHDR CRC": Buffer.concat([png.subarray(0, 29), Buffer.from([png[29]! ^ 1]), png.subarray(30)]),
      "IHDR 12 bytes long": Buffer.concat([png.subarray(0, 11), Buffer.from([12]), png.subarray(12)]),
      "chunk type with a digit": withChunk(pngChunk("a1Aa", new Uint8Array(4))),
      "chunk type with the reserved bit": withChunk(pngChunk("abcd", new Uint8Array(4))),
    };
    for (const [what, bytes] of Object.entries(damaged)) expect(() => readImageFrames(bytes, "png", resolveLimits()), what).toThrow(/PNG image header is damaged/);
    // Not a crash, but the specification has a decoder refuse a critical chunk it does not know.
    expect(() => readImageFrames(withChunk(pngChunk("ABCD", new Uint8Array(4))), "png", resolveLimits())).toThrow(/PNG image header is damaged/);
    // What libpng reads without complaint still reads: unknown ancillary chunks, and a file cut inside IDAT's data.
    expect(readImageFrames(withChunk(pngChunk("xxXx", new Uint8Array(10))), "png", resolveLimits())).toEqual([{ width: 360, height: 120 }]);
    expect(readImageFrames(png.subarray(0, idat + 8), "png", resolveLimits())).toEqual([{ width: 360, height: 120 }]);
    const dir = mkdtempSync(path.join(tmpdir(), "shipshape-png-damaged-"));
    try {
      const files = Object.values(damaged).map((bytes, i) => {
        const file = path.join(dir, `case-${i}.png`);
        writeFileSync(file, bytes);
        return file;
      });
      const run = await ingestInChild(files);
      expect(run.signal, run.stderr).toBeNull();
      expect(run.stdout.trim().split("\n")).toEqual(files.map((_, i) => `case-${i}.png unreadable`));
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  }, 90_000);
});

describe("ingestImage", { timeout: OCR_TEST_TIMEOUT_MS }, () => {
  it("reads every frame of a multi-page TIFF as consecutive pages", async () => {
    const pdf = await makeTextPdf([{ lines: SHORT_PAGE }, { lines: SECOND_PAGE }]);
    const tiff = makeMultiPageTiff(await rasterisePdf(pdf, { dpi: 200, format: "pgm" }), 200);
    const pages = await ingestImage(tiff, "tiff", { firstPageNumber: 3 });
    expect(pages.map((p) => [p.number, p.source])).toEqual([[3, "ocr"], [4, "ocr"]]);
    expect(pages[0]!.width).toBeCloseTo(595, -1);
    expect(wordRecall(wordsOf(SHORT_PAGE), read(pages[0]!))).toBeGreaterThanOrEqual(0.9);
    expect(wordRecall(wordsOf(SECOND_PAGE), read(pages[1]!))).toBeGreaterThanOrEqual(0.9);
  });

  it("reads a WebP photo with no stated resolution as an A4-wide page", async () => {
    const [png] = await rasterisePdf(await makeTextPdf([{ lines: SECOND_PAGE, fontSize: 16 }]), { dpi: 150, format: "png" });
    const image = await loadImage(Buffer.from(png!));
    const canvas = createCanvas(image.width, image.height);
    canvas.getContext("2d").drawImage(image, 0, 0);
    const webp = new Uint8Array(await canvas.encode("webp", 90));
    const [page] = await ingestImage(webp, "webp");
    expect(page!.width).toBeCloseTo(595, -1);
    expect(wordRecall(wordsOf(SECOND_PAGE), read(page!))).toBeGreaterThanOrEqual(0.9);
  });
});

describe("images canvas must not decode", () => {
  it("leaves a TIFF to tesseract: no enlargement and no turn through canvas, which crashed the process on one", async () => {
    const pdf = await makeTextPdf([{ lines: SECOND_PAGE }]);
    const tiff = makeMultiPageTiff(await rasterisePdf(pdf, { dpi: 50, format: "pgm" }), 50);
    expect(await scaleImage(tiff, () => 2)).toBeUndefined();
    expect(await turnImage(tiff, 2)).toBeUndefined();
  });
});
