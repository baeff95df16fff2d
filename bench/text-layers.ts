/**
 * Text layers side by side: PDFium as the engine reads it (lib/analysis/ingest/pdf.ts:
 * @embedpdf/pdfium's WebAssembly build, per-character boxes), pdfjs as the
 * engine read it before (its items split into words at white space, each
 * word's x estimated from its character offset) and with every option tuned,
 * poppler's `pdftotext -bbox-layout` as a subprocess, and MuPDF's WebAssembly
 * build (`mupdf`). Each turns the same PDFs into positioned words, which go
 * through the engine's own line grouping and reading order and then its
 * pipeline (analyzePages), so the accuracy columns say what the engine
 * extracts from each text layer.
 *
 *   node --import tsx bench/text-layers.ts [--modules DIR] [--corpus DIR] [--rounds N]
 *
 * MuPDF is not a dependency of the project (AGPL-3.0, see the README's
 * performance section); it is loaded from DIR's node_modules when given
 * (`npm install --prefix DIR mupdf@1.28.1`), and left out otherwise. Speed is
 * pages per CPU-second of text extraction alone (this process's threads and
 * the subprocesses it waited for: a loaded machine does not inflate it), and
 * per wall second; one document at a time, interleaved file by file, the
 * first round a warm-up. Files: the endpoint bench's two one-page invoices,
 * both parts of the layout families (digital), and the PDFs with a text layer
 * of the corpus (--corpus, default ../shared/corpus).
 */
import { execFile } from "node:child_process";
import { existsSync, readFileSync } from "node:fs";
import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { promisify } from "node:util";
import { getDocument, VerbosityLevel } from "pdfjs-dist/legacy/build/pdf.mjs";
import { analyzePages, type Page, type SplitResult, type Word } from "@/lib/analysis";
import { cleanPages, cleanText } from "@/lib/analysis/ingest/clean-text";
import { groupLines, orderLines } from "@/lib/analysis/ingest/layout";
import { readPdf } from "@/lib/analysis/ingest/pdf";
import { generateDocument } from "@/test/fixtures/generator/index";
import { familySet, type Part } from "@/test/fixtures/generator/families/index";
import { invoicePages, makePdf } from "@/test/support/api-fixtures";
import { CORPUS_DIR, corpusExists, expectedOf, type LabelEntry } from "./corpus";
import { f1, scoreCase, summarize, totalCounts, type CaseScore } from "./metrics";
import { formatTable } from "./report";

const run = promisify(execFile);

/** The pdfjs word geometry the engine's thresholds were set on: top of the box at 0.8 em above the baseline, 1 em tall. */
const ASCENT_SHARE = 0.8;
/** A gap between two characters wider than this share of the font size ends a word (engines that give characters). */
const WORD_GAP_EM = 0.25;
const DEFAULT_ROUNDS = 3;

interface TextLayer {
  name: string;
  licence: string;
  read(bytes: Uint8Array): Promise<Page[]>;
  close?(): void;
}

interface Input {
  set: string;
  name: string;
  pdf: Uint8Array;
  expected: SplitResult[];
  /** The corpus labels a few keys: only those are scored. */
  labelledOnly?: boolean;
}

function option(name: string): string | undefined {
  const at = process.argv.indexOf(name);
  return at >= 0 ? process.argv[at + 1] : undefined;
}

/** Words to a page as every ingester makes it: lines grouped and ordered by the engine's own layout. */
function pageOf(number: number, width: number, height: number, words: Word[]): Page {
  return { number, width, height, lines: orderLines(groupLines(words)), source: "text-layer" };
}

/** A word from its left edge, right edge, baseline and font size, in the pdfjs geometry the engine expects. */
function wordOf(text: string, left: number, right: number, baseline: number, fontSize: number): Word {
  const clean = cleanText(/[^\u0000-\u007f]/.test(text) ? text.normalize("NFKC") : text);
  return { text: clean, x: left, y: baseline - ASCENT_SHARE * fontSize, width: Math.max(0, right - left), height: fontSize, fontSize, confidence: 1 };
}

/** Characters (with their boxes and baselines) to words: split at white space and at gaps wider than WORD_GAP_EM. */
class WordBuilder {
  readonly words: Word[] = [];
  private text = "";
  private left = 0;
  private right = 0;
  private baseline = 0;
  private size = 0;

  add(c: string, left: number, right: number, baseline: number, size: number): void {
    if (/\s/.test(c) || !(size > 0)) return this.end();
    const apart = this.text && (left - this.right > WORD_GAP_EM * size || Math.abs(baseline - this.baseline) > 0.3 * size || left < this.left);
    if (apart) this.end();
    if (!this.text) {
      this.left = left;
      this.baseline = baseline;
      this.size = size;
    }
    this.text += c;
    this.right = Math.max(this.right, right);
    this.size = Math.max(this.size, size);
  }

  end(): void {
    if (this.text) this.words.push(wordOf(this.text, this.left, this.right, this.baseline, this.size));
    this.text = "";
    this.right = 0;
  }
}

/** PDFium as the engine reads it (lib/analysis/ingest/pdf.ts). */
const pdfiumEngine: TextLayer = {
  name: "PDFium (engine's ingest, @embedpdf/pdfium 2.15.1)",
  licence: "BSD-3-Clause (PDFium), MIT (bindings)",
  read: async (bytes) => (await readPdf(bytes, { maxPages: 500 })).pages,
};

/** Words of a pdfjs text item as the engine made them before PDFium: each word's x from its character offset in the item. */
function pdfjsItemWords(item: { str: string; transform: number[]; width: number }, viewport: number[], out: Word[]): void {
  const [v0 = 1, v1 = 0, v2 = 0, v3 = 1, v4 = 0, v5 = 0] = viewport;
  const [t0 = 1, t1 = 0, t2 = 0, t3 = 1, t4 = 0, t5 = 0] = item.transform;
  const [m0, m1, m2, m3] = [v0 * t0 + v2 * t1, v1 * t0 + v3 * t1, v0 * t2 + v2 * t3, v1 * t2 + v3 * t3];
  const fontSize = Math.hypot(m2, m3) || Math.hypot(m0, m1);
  if (!(fontSize > 0)) return;
  const scaleX = Math.hypot(m0, m1) || 1;
  const [dirX, dirY] = [m0 / scaleX, m1 / scaleX];
  const str = cleanText(/[^\u0000-\u007f]/.test(item.str) ? item.str.normalize("NFKC") : item.str);
  const perChar = (item.width * Math.hypot(v0, v1)) / str.length;
  const [originX, originY] = [v0 * t4 + v2 * t5 + v4, v1 * t4 + v3 * t5 + v5];
  for (const match of str.matchAll(/\S+/g)) {
    const offset = (match.index ?? 0) * perChar;
    const width = match[0].length * perChar;
    const [baseX, baseY] = [originX + dirX * offset, originY + dirY * offset];
    out.push({ text: match[0], x: dirX >= 0 ? baseX : baseX - width, y: baseY - ASCENT_SHARE * fontSize, width, height: fontSize, fontSize, confidence: 1 });
  }
}

/** pdfjs as the engine read it until it moved to PDFium (lib/analysis/ingest/pdf.ts before). */
const pdfjsEngine: TextLayer = {
  name: "pdfjs 5.6 (engine's ingest before)",
  licence: "Apache-2.0",
  async read(bytes) {
    const doc = await getDocument({ data: bytes.slice(), isEvalSupported: false, useSystemFonts: false, disableFontFace: true, stopAtErrors: false, verbosity: VerbosityLevel.ERRORS }).promise;
    try {
      const pages: Page[] = [];
      for (let n = 1; n <= doc.numPages; n++) {
        const page = await doc.getPage(n);
        const viewport = page.getViewport({ scale: 1 });
        const content = await page.getTextContent({ disableNormalization: true });
        const words: Word[] = [];
        for (const item of content.items) if ("str" in item && /\S/.test(item.str)) pdfjsItemWords(item, viewport.transform, words);
        pages.push(pageOf(n, viewport.width, viewport.height, words));
        page.cleanup();
      }
      return pages;
    } finally {
      await doc.destroy();
    }
  },
};

/**
 * pdfjs with every option that could skip work for text alone; the words are
 * made as the engine makes them. getTextContent needs the font programs
 * parsed (widths, ToUnicode), so no option avoids that.
 */
const pdfjsTuned: TextLayer = {
  name: "pdfjs 5.6 tuned",
  licence: "Apache-2.0",
  async read(bytes) {
    const doc = await getDocument({
      data: bytes.slice(),
      isEvalSupported: false,
      useSystemFonts: false,
      disableFontFace: true,
      fontExtraProperties: false,
      isOffscreenCanvasSupported: false,
      isImageDecoderSupported: false,
      enableXfa: false,
      disableAutoFetch: true,
      disableStream: true,
      stopAtErrors: false,
      verbosity: VerbosityLevel.ERRORS,
    }).promise;
    try {
      const pages: Page[] = [];
      for (let n = 1; n <= doc.numPages; n++) {
        const page = await doc.getPage(n);
        const viewport = page.getViewport({ scale: 1 });
        const content = await page.getTextContent({ disableNormalization: true, includeMarkedContent: false });
        const words: Word[] = [];
        for (const item of content.items) {
          if (!("str" in item) || !/\S/.test(item.str)) continue;
          // Axis-aligned text only (what these files hold): origin, size and width in page space.
          const [a = 1, b = 0, c = 0, d = 1, e = 0, f = 0] = item.transform;
          const size = Math.hypot(c, d) || Math.hypot(a, b);
          const perChar = item.width / item.str.length;
          const baseline = viewport.height - f;
          for (const match of item.str.matchAll(/\S+/g)) {
            const left = e + (match.index ?? 0) * perChar;
            words.push(wordOf(match[0], left, left + match[0].length * perChar, baseline, size));
          }
        }
        pages.push(pageOf(n, viewport.width, viewport.height, words));
        page.cleanup();
      }
      return pages;
    } finally {
      await doc.destroy();
    }
  },
};

const XML_ENTITIES: Record<string, string> = { amp: "&", lt: "<", gt: ">", quot: '"', apos: "'" };
const decodeXml = (text: string) => text.replace(/&(amp|lt|gt|quot|apos);/g, (_, name: string) => XML_ENTITIES[name]!);

/** poppler's words: a subprocess per file, the file written to a temporary directory first (as a reader would). */
function popplerEngine(dir: string): TextLayer {
  let files = 0;
  return {
    name: "poppler 22.12 pdftotext -bbox-layout",
    licence: "GPL-2.0/3.0 (separate program)",
    async read(bytes) {
      const path = join(dir, `in-${files++}.pdf`);
      await writeFile(path, bytes);
      const { stdout } = await run("pdftotext", ["-bbox-layout", "-q", path, "-"], { maxBuffer: 256 * 2 ** 20 });
      await rm(path, { force: true });
      const pages: Page[] = [];
      for (const pageMatch of stdout.matchAll(/<page width="([\d.]+)" height="([\d.]+)">([\s\S]*?)<\/page>/g)) {
        const words: Word[] = [];
        for (const w of pageMatch[3]!.matchAll(/<word xMin="([\d.-]+)" yMin="([\d.-]+)" xMax="([\d.-]+)" yMax="([\d.-]+)">([^<]*)<\/word>/g)) {
          const [xMin, yMin, xMax, yMax] = [w[1], w[2], w[3], w[4]].map(Number) as [number, number, number, number];
          // poppler's box spans the font's ascent and descent: about one em, the baseline near 0.8 of it.
          const size = yMax - yMin;
          words.push(wordOf(decodeXml(w[5]!), xMin, xMax, yMin + ASCENT_SHARE * size, size));
        }
        pages.push(pageOf(pages.length + 1, Number(pageMatch[1]), Number(pageMatch[2]), words));
      }
      return pages;
    },
  };
}

interface MupdfModule {
  Document: { openDocument(from: Uint8Array, magic: string): MupdfDocument };
}
interface MupdfDocument {
  countPages(): number;
  loadPage(i: number): { getBounds(): number[]; toStructuredText(options: string): MupdfText; destroy?(): void };
  destroy?(): void;
}
interface MupdfText {
  walk(walker: { onChar(c: string, origin: number[], font: unknown, size: number, quad: number[]): void; endLine(): void }): void;
  destroy?(): void;
}

/** MuPDF's structured text, character by character (its quads and origins are in page space, top-left origin). */
function mupdfEngine(mupdf: MupdfModule): TextLayer {
  return {
    name: "MuPDF 1.28.1 (WebAssembly)",
    licence: "AGPL-3.0-or-later",
    async read(bytes) {
      const doc = mupdf.Document.openDocument(bytes, "application/pdf");
      try {
        const pages: Page[] = [];
        for (let i = 0; i < doc.countPages(); i++) {
          const page = doc.loadPage(i);
          const [x0 = 0, y0 = 0, x1 = 0, y1 = 0] = page.getBounds();
          const text = page.toStructuredText("preserve-whitespace");
          const builder = new WordBuilder();
          text.walk({
            onChar: (c, origin, _font, size, quad) => builder.add(c, Math.min(quad[0]!, quad[4]!), Math.max(quad[2]!, quad[6]!), origin[1]!, size),
            endLine: () => builder.end(),
          });
          builder.end();
          text.destroy?.();
          page.destroy?.();
          pages.push(pageOf(i + 1, x1 - x0, y1 - y0, builder.words));
        }
        return pages;
      } finally {
        doc.destroy?.();
      }
    },
  };
}

async function inputs(): Promise<Input[]> {
  const standard = await makePdf([invoicePages()[0]!]);
  const embedded = await generateDocument({ type: "commercial_invoice", seed: 1 });
  const all: Input[] = [
    { set: "invoice, standard fonts", name: "standard", pdf: standard, expected: [] },
    { set: "invoice, embedded fonts", name: "embedded", pdf: embedded.pdf, expected: embedded.expected },
  ];
  for (const part of ["development", "holdout"] as Part[]) {
    for (const c of familySet(part)) {
      const fixture = await c.make();
      all.push({ set: `families ${part}`, name: c.name, pdf: fixture.pdf, expected: fixture.expected });
    }
  }
  const corpus = option("--corpus") ?? CORPUS_DIR;
  if (corpusExists(corpus)) {
    const entries = JSON.parse(readFileSync(join(corpus, "labels.json"), "utf8")) as LabelEntry[];
    for (const entry of entries) {
      const path = join(corpus, "files", entry.file);
      if (entry.format !== "pdf" || entry.text_layer === false || entry.scan === true || !existsSync(path)) continue;
      all.push({ set: "corpus (text layer)", name: entry.file, pdf: new Uint8Array(readFileSync(path)), expected: expectedOf(entry), labelledOnly: true });
    }
  }
  return all;
}

/** Keeps the labelled keys only (the corpus labels a few keys per file, as bench/corpus.ts scores it). */
function labelledOnly(expected: SplitResult[], predicted: SplitResult[]): SplitResult[] {
  const keys = new Set(expected.flatMap((s) => Object.keys(s.extracted)));
  return predicted.map((s) => ({ split: s.split, extracted: Object.fromEntries(Object.entries(s.extracted).filter(([k]) => keys.has(k))) }));
}

interface SetResult {
  pages: number;
  ms: number;
  /** CPU time, this process's threads and the subprocesses it waited for: what a loaded machine cannot inflate. */
  cpuMs: number;
  scores: CaseScore[];
  errors: number;
}

/** Clock ticks per second of /proc's CPU times (USER_HZ; 100 on Linux). */
const TICKS_PER_SECOND = 100;

/** CPU milliseconds used so far by this process and by the children it has waited for (subprocess engines). */
function cpuMs(): number {
  const own = process.cpuUsage();
  const stat = readFileSync("/proc/self/stat", "utf8");
  const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
  // Fields 16 and 17 of stat (cutime, cstime) are the 14th and 15th after the command name.
  const children = (Number(fields[13]) + Number(fields[14])) * (1000 / TICKS_PER_SECOND);
  return (own.user + own.system) / 1000 + children;
}

/** Files each layer reads once before any is timed, so that no layer's first files pay its compilation. */
const WARM_UP_FILES = 12;

async function measure(layers: TextLayer[], files: Input[], rounds: number): Promise<Map<string, Map<string, SetResult>>> {
  const results = new Map(layers.map((l) => [l.name, new Map<string, SetResult>()]));
  for (const layer of layers) for (const file of files.slice(0, WARM_UP_FILES)) await layer.read(file.pdf).catch(() => undefined);
  for (const file of files) {
    for (const layer of layers) {
      const entry = results.get(layer.name)!;
      const set = entry.get(file.set) ?? entry.set(file.set, { pages: 0, ms: 0, cpuMs: 0, scores: [], errors: 0 }).get(file.set)!;
      let pages: Page[] | undefined;
      for (let round = 0; round < rounds; round++) {
        const started = performance.now();
        const cpuStarted = cpuMs();
        try {
          pages = await layer.read(file.pdf);
        } catch {
          pages = undefined;
          break;
        }
        if (round === 0) continue;
        set.ms += performance.now() - started;
        set.cpuMs += cpuMs() - cpuStarted;
        set.pages += pages.length;
      }
      if (!pages) {
        set.errors += 1;
        continue;
      }
      if (file.expected.length === 0) continue;
      const predicted = analyzePages(cleanPages(pages), { fileName: `${file.name}.pdf` });
      set.scores.push(scoreCase(file.expected, file.labelledOnly ? labelledOnly(file.expected, predicted) : predicted));
    }
  }
  return results;
}

function format(layers: TextLayer[], results: Map<string, Map<string, SetResult>>): string {
  const sets = [...new Set([...results.values()].flatMap((m) => [...m.keys()]))];
  const rows: string[][] = [];
  for (const set of sets) {
    for (const layer of layers) {
      const r = results.get(layer.name)?.get(set);
      if (!r) continue;
      const summary = r.scores.length ? summarize(r.scores) : undefined;
      rows.push([
        set,
        layer.name,
        r.cpuMs > 0 ? (r.pages / (r.cpuMs / 1000)).toFixed(0) : "-",
        r.ms > 0 ? (r.pages / (r.ms / 1000)).toFixed(0) : "-",
        summary ? `${(summary.pageAccuracy * 100).toFixed(1)}%` : "-",
        summary ? summary.splitF1.toFixed(3) : "-",
        summary ? f1(totalCounts(summary.fieldsByType)).toFixed(3) : "-",
        String(r.errors),
      ]);
    }
  }
  const licences = layers.map((l) => `  ${l.name}: ${l.licence}`).join("\n");
  return [formatTable(["files", "text layer", "pages/CPU-s", "pages/s wall", "page type", "split F1", "field F1", "unreadable"], rows), "", "Licences", licences].join("\n");
}

const modules = option("--modules");
const rounds = Number(option("--rounds") ?? DEFAULT_ROUNDS);
const tmp = await mkdtemp(join(tmpdir(), "shipshape-text-layers-"));
const layers: TextLayer[] = [pdfiumEngine, pdfjsEngine, pdfjsTuned, popplerEngine(tmp)];
if (modules) {
  const mupdf = (await import(pathToFileURL(join(modules, "node_modules/mupdf/dist/mupdf.js")).href)) as MupdfModule;
  layers.push(mupdfEngine(mupdf));
}
try {
  const files = await inputs();
  console.log(format(layers, await measure(layers, files, Math.max(2, rounds))));
} finally {
  await rm(tmp, { recursive: true, force: true });
}
