import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { createWorker, OEM } from "tesseract.js";
import { ocrImage } from "./ocr";
import { DEFAULT_PAGE_SEGMENTATION_MODE, parseTesseractTsv, recognizeFile, type OcrRawPage } from "./ocr-tesseract";

/**
 * Side-by-side cost of the two OCR engines on the same images with the same
 * settings (model file, page segmentation mode, LSTM engine, one thread), for
 * the benchmark and the README's choice of engine. Not used when analysing.
 */
export interface EngineTiming {
  engine: "tesseract-cli" | "tesseract.js" | "ocrImage";
  msPerPage: number;
  /** Words read on each image, in order. */
  words: string[][];
}

type Reader = (file: string, image: Uint8Array) => Promise<string[]>;

function wordsOfRaw(pages: OcrRawPage[]): string[] {
  return (pages[0]?.lines ?? []).flat().map((w) => w.text);
}

/** Where Debian's tesseract-ocr-eng installs the model both engines load here. */
const DEBIAN_TESSDATA = "/usr/share/tesseract-ocr/5/tessdata";

/** Writes the images to a private directory for the CLI (it reads files) and removes them afterwards. */
async function withImageFiles<T>(images: Uint8Array[], use: (files: string[]) => Promise<T>): Promise<T> {
  const dir = await mkdtemp(join(tmpdir(), "shipshape-ocr-compare-"));
  try {
    const files = await Promise.all(images.map(async (image, i) => {
      const file = join(dir, `image-${i}`);
      await writeFile(file, image);
      return file;
    }));
    return await use(files);
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

async function timed<T>(work: () => Promise<T>): Promise<[T, number]> {
  const start = performance.now();
  const value = await work();
  return [value, performance.now() - start];
}

/**
 * Times two readers on the same images, alternating image by image so that
 * the load of a shared machine drifts onto both alike.
 */
async function alternate(
  images: Uint8Array[],
  files: string[],
  first: [EngineTiming["engine"], Reader],
  second: [EngineTiming["engine"], Reader],
): Promise<EngineTiming[]> {
  const results = [first, second].map(([engine]) => ({ engine, msPerPage: 0, words: [] as string[][] }));
  for (let i = 0; i < images.length; i++) {
    for (const [k, [, read]] of [first, second].entries()) {
      const [words, ms] = await timed(() => read(files[i]!, images[i]!));
      results[k]!.words.push(words);
      results[k]!.msPerPage += ms / images.length;
    }
  }
  return results;
}

/**
 * Times both engines on the same images with the same model and settings;
 * tesseract.js is a long-lived worker warmed by one untimed page, as a server
 * would keep it. Compare at a mode without orientation detection (6):
 * tesseract.js has no osd.traineddata, so at mode 1 it would silently do less.
 */
export async function compareOcrEngines(images: Uint8Array[], options: { psm: number; dpi: number; langPath?: string }): Promise<EngineTiming[]> {
  const worker = await createWorker("eng", OEM.LSTM_ONLY, { langPath: options.langPath ?? DEBIAN_TESSDATA, gzip: false, cacheMethod: "none" });
  try {
    await worker.setParameters({ tessedit_pageseg_mode: String(options.psm) as never, user_defined_dpi: String(options.dpi) });
    // Buffers only: tesseract.js fetches URL strings and reads path strings.
    const readJs: Reader = async (_file, image) => wordsOfRaw(parseTesseractTsv((await worker.recognize(Buffer.from(image), {}, { tsv: true })).data.tsv ?? ""));
    if (images[0]) await readJs("", images[0]);
    return await withImageFiles(images, (files) =>
      alternate(images, files, ["tesseract-cli", async (file) => wordsOfRaw(await recognizeFile(file, { psm: options.psm, dpi: options.dpi }))], ["tesseract.js", readJs]),
    );
  } finally {
    await worker.terminate();
  }
}

/** Times the whole OCR path (ocrImage: temp file, CLI, TSV, upright, deskew, layout) against the bare CLI at the production mode. */
export async function compareOcrOverhead(images: Uint8Array[], dpi: number): Promise<EngineTiming[]> {
  const pipeline: Reader = async (_file, image) => (await ocrImage(image, { dpi }))[0]?.lines.flatMap((l) => l.words.map((w) => w.text)) ?? [];
  const bare: Reader = async (file) => wordsOfRaw(await recognizeFile(file, { psm: DEFAULT_PAGE_SEGMENTATION_MODE, dpi }));
  return withImageFiles(images, (files) => alternate(images, files, ["tesseract-cli", bare], ["ocrImage", pipeline]),
  );
}
