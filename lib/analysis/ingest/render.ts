import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { AnalysisError } from "../errors";
import { runCpuLimited } from "./cpu-limited";

/**
 * Renders PDF pages to greyscale PNG files for OCR with poppler's pdftoppm.
 * Measured against pdfjs + @napi-rs/canvas on the same scanned pages at 300 dpi:
 * the same time (670–800 ms a page both), but pdftoppm's grey PNGs are 4–5×
 * smaller, and a hostile page that hangs or crashes the renderer kills only a
 * child process that has its own limit of CPU time.
 */

/** Tesseract reads body text best at 300 dpi; more only costs time. */
export const OCR_RENDER_DPI = 300;
/** Below this a 10 pt line is too few pixels high for OCR: a page is refused rather than read badly. */
const MIN_RENDER_DPI = 72;
/**
 * CPU seconds one pdfinfo or pdftoppm run may take: a page at 300 dpi takes
 * well under a second, so this stops a pathological page only. CPU time, not
 * wall time, as for OCR: under load a run takes many times its CPU time, and
 * load alone must never fail a page that would be rendered.
 */
const DEFAULT_RENDER_CPU_SECONDS = 60;
const POINTS_PER_INCH = 72;
const PDFINFO_MAX_BYTES = 4 * 1024 * 1024;

export interface RenderOptions {
  dpi?: number;
  /** Pixels one rendered page may have; large pages are rendered at a lower resolution. */
  maxPixels: number;
  /** CPU seconds one renderer run may take (DEFAULT_RENDER_CPU_SECONDS). */
  cpuSeconds?: number;
}

export interface RenderedPage {
  number: number;
  file: string;
  dpi: number;
}

function run(command: string, args: string[], cpuSeconds: number): Promise<string> {
  return runCpuLimited(command, args, {
    cpuSeconds,
    maxBuffer: PDFINFO_MAX_BYTES,
    encoding: "latin1",
    tooLong: "Rendering the scanned page took too long.",
    notInstalled: `Scanned pages cannot be read: ${command} (poppler-utils) is not installed.`,
    failed: "A scanned page of the PDF cannot be rendered.",
  });
}

/** Page sizes in points from pdfinfo, keyed by page number. */
async function readPageSizes(file: string, first: number, last: number, cpuSeconds: number): Promise<Map<number, [number, number]>> {
  const out = await run("pdfinfo", ["-f", String(first), "-l", String(last), file], cpuSeconds);
  const sizes = new Map<number, [number, number]>();
  for (const match of out.matchAll(/^Page\s+(\d+)\s+size:\s+([\d.]+)\s+x\s+([\d.]+)/gm)) {
    sizes.set(Number(match[1]), [Number(match[2]), Number(match[3])]);
  }
  return sizes;
}

/** The render resolution: the OCR resolution, lowered so the page stays within the pixel limit. */
export function chooseRenderDpi(widthPoints: number, heightPoints: number, options: RenderOptions): number {
  const wanted = options.dpi ?? OCR_RENDER_DPI;
  const squareInches = (widthPoints / POINTS_PER_INCH) * (heightPoints / POINTS_PER_INCH);
  const fitting = Math.floor(Math.sqrt(options.maxPixels / Math.max(squareInches, 1e-6)));
  return Math.min(wanted, fitting);
}

/**
 * Renders each listed page to a PNG in a private temporary directory and hands
 * it to `use` one page at a time (a 300 dpi page is 9 MP; never hold them all).
 */
export async function withRenderedPages<T>(
  pdf: Uint8Array,
  pageNumbers: number[],
  options: RenderOptions,
  use: (page: RenderedPage) => Promise<T>,
): Promise<T[]> {
  if (pageNumbers.length === 0) return [];
  const cpuSeconds = options.cpuSeconds ?? DEFAULT_RENDER_CPU_SECONDS;
  const dir = await mkdtemp(join(tmpdir(), "shipshape-render-"));
  try {
    const input = join(dir, "input.pdf");
    await writeFile(input, pdf);
    const sizes = await readPageSizes(input, Math.min(...pageNumbers), Math.max(...pageNumbers), cpuSeconds);
    const results: T[] = [];
    for (const number of pageNumbers) {
      const [width, height] = sizes.get(number) ?? [0, 0];
      const dpi = chooseRenderDpi(width, height, options);
      if (!(width > 0 && height > 0) || dpi < MIN_RENDER_DPI) {
        throw new AnalysisError("limit_exceeded", `Page ${number} is too large to read as a scan within the maximum pixels per image limit of ${options.maxPixels}.`, number);
      }
      const root = join(dir, `page-${number}`);
      await run("pdftoppm", ["-r", String(dpi), "-f", String(number), "-l", String(number), "-gray", "-png", "-singlefile", input, root], cpuSeconds);
      const file = `${root}.png`;
      results.push(await use({ number, file, dpi }));
      await rm(file, { force: true });
    }
    return results;
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}
