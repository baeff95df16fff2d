import { createHash } from "node:crypto";
import { mkdir, mkdtemp, readFile, rename, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { runCpuLimited } from "./cpu-limited";

/**
 * Runs the Debian `tesseract` command line (5.x) on one image file and parses
 * its TSV. Chosen over tesseract.js by measurement: on the same 300 dpi pages
 * with the same model and page segmentation mode, tesseract.js took 1.23–1.39×
 * the CLI's time (see README, "OCR").
 */

/** A word as tesseract reports it, in image pixels. */
export interface OcrWord {
  text: string;
  left: number;
  top: number;
  width: number;
  height: number;
  /** 0..100 as tesseract reports it. */
  confidence: number;
}

/** One image (TIFF frame) as tesseract read it: its lines in tesseract's order. */
export interface OcrRawPage {
  width: number;
  height: number;
  lines: OcrWord[][];
}

/**
 * Page segmentation 1 = automatic layout with orientation and script detection:
 * it reads upside-down and sideways pages (boxes stay in the image's frame) for
 * ~10% more time than psm 6, which cannot turn a page.
 */
export const DEFAULT_PAGE_SEGMENTATION_MODE = 1;
/** LSTM only: the legacy engine is slower and less accurate on print. */
const OCR_ENGINE_MODE = "1";
/** OpenMP threads fight each other on shared cores: 1 thread was 3–4× faster (stack notes). */
const OMP_THREADS = "1";
/**
 * CPU seconds tesseract may spend on one image: a page at 300 dpi takes 1–8 s
 * of CPU, so this stops a pathological image only. CPU time, not wall time: on a
 * busy machine a page takes many times its CPU time to read (a 1.5 s page took
 * 26 s at load 20), and load alone must never fail a page that would be read.
 */
const DEFAULT_OCR_CPU_SECONDS = 120;
const MAX_TSV_BYTES = 64 * 1024 * 1024;
const TSV_COLUMNS = 12;
const TSV_LEVEL_PAGE = 1;
const TSV_LEVEL_WORD = 5;

export interface TesseractOptions {
  psm?: number;
  /** Resolution hint; tesseract guesses (often wrongly) without one. */
  dpi?: number;
  /** CPU seconds one image may take (DEFAULT_OCR_CPU_SECONDS). */
  cpuSeconds?: number;
}

function runTesseract(file: string, options: TesseractOptions): Promise<string> {
  const psm = options.psm ?? DEFAULT_PAGE_SEGMENTATION_MODE;
  const args = [file, "stdout", "--psm", String(psm), "--oem", OCR_ENGINE_MODE, "-c", "tessedit_create_tsv=1"];
  if (options.dpi) args.push("--dpi", String(Math.round(options.dpi)));
  return runCpuLimited("tesseract", args, {
    cpuSeconds: options.cpuSeconds ?? DEFAULT_OCR_CPU_SECONDS,
    env: { ...process.env, OMP_THREAD_LIMIT: OMP_THREADS },
    maxBuffer: MAX_TSV_BYTES,
    encoding: "utf8",
    tooLong: "Reading the scanned page took too long.",
    notInstalled: "Scanned pages cannot be read: the OCR engine (tesseract) is not installed.",
    failed: "The image could not be decoded for OCR.",
  });
}

/** Parses tesseract's TSV into pages of lines of words; empty and negative-confidence rows are dropped. */
export function parseTesseractTsv(tsv: string): OcrRawPage[] {
  const pages = new Map<number, OcrRawPage>();
  const lines = new Map<string, OcrWord[]>();
  for (const row of tsv.split("\n")) {
    const cells = row.split("\t");
    if (cells.length < TSV_COLUMNS) continue;
    const [level, pageNum, block, par, line, , left, top, width, height, conf] = cells.map(Number);
    const text = cells.slice(TSV_COLUMNS - 1).join("\t").trim();
    if (level === TSV_LEVEL_PAGE && pageNum !== undefined) {
      pages.set(pageNum, { width: width ?? 0, height: height ?? 0, lines: [] });
    }
    if (level !== TSV_LEVEL_WORD || !text || conf === undefined || conf < 0) continue;
    const key = `${pageNum}:${block}:${par}:${line}`;
    let words = lines.get(key);
    if (!words) {
      words = [];
      lines.set(key, words);
      pages.get(pageNum ?? 0)?.lines.push(words);
    }
    words.push({ text, left: left ?? 0, top: top ?? 0, width: width ?? 0, height: height ?? 0, confidence: conf });
  }
  return [...pages.entries()].sort(([a], [b]) => a - b).map(([, page]) => page);
}

/**
 * Benchmarks only: a directory where tesseract's TSV is kept per image and
 * settings, so that measuring a change made after OCR (layout, extraction)
 * does not pay for the same OCR again. Unset in production.
 */
const OCR_CACHE_DIR = process.env.SHIPSHAPE_OCR_CACHE_DIR;

async function runTesseractCached(file: string, options: TesseractOptions): Promise<string> {
  if (!OCR_CACHE_DIR) return runTesseract(file, options);
  const key = createHash("sha256")
    .update(await readFile(file))
    .update(JSON.stringify([options.psm ?? DEFAULT_PAGE_SEGMENTATION_MODE, options.dpi ? Math.round(options.dpi) : 0]))
    .digest("hex");
  const cached = join(OCR_CACHE_DIR, `${key}.tsv`);
  const hit = await readFile(cached, "utf8").catch(() => undefined);
  if (hit !== undefined) return hit;
  const tsv = await runTesseract(file, options);
  await mkdir(OCR_CACHE_DIR, { recursive: true });
  await writeFile(`${cached}.${process.pid}`, tsv);
  await rename(`${cached}.${process.pid}`, cached);
  return tsv;
}

/** OCRs an image file already on disk: one raw page per frame. */
export async function recognizeFile(file: string, options: TesseractOptions = {}): Promise<OcrRawPage[]> {
  return parseTesseractTsv(await runTesseractCached(file, options));
}

/** OCRs an encoded image (PNG, JPEG, TIFF with all its frames, WebP): one raw page per frame. */
export async function recognizeImage(bytes: Uint8Array, options: TesseractOptions = {}): Promise<OcrRawPage[]> {
  // A private directory: tesseract reads multi-frame TIFFs only from a file.
  const dir = await mkdtemp(join(tmpdir(), "shipshape-ocr-"));
  try {
    const file = join(dir, "image");
    await writeFile(file, bytes);
    return await recognizeFile(file, options);
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}
