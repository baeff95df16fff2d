/**
 * Engine benchmark: accuracy and speed of analyzeDocument on the generated
 * golden set, and accuracy on ../shared/corpus when that folder exists.
 */
import { performance } from "node:perf_hooks";
import { getDocument } from "pdfjs-dist/legacy/build/pdf.mjs";
import { analyzeDocument, type SplitResult } from "@/lib/analysis";
import { goldenSet, holdoutSet } from "@/test/fixtures/generator/index";
import { scoreCase, summarize, type CaseScore, type Summary } from "./metrics";

/** Rounds of interleaved timing; the first is a warm-up and not counted. */
const SPEED_ROUNDS = 3;

export interface CaseResult {
  name: string;
  pages: number;
  score: CaseScore;
  expected: SplitResult[];
  predicted: SplitResult[];
  /** Wall time of analyzeDocument on this file. */
  ms: number;
  error?: string;
}

export interface GeneratedReport {
  cases: CaseResult[];
  summary: Summary;
}

export interface SpeedReport {
  files: number;
  pages: number;
  rounds: number;
  analysisMs: number;
  rawTextMs: number;
  ratio: number;
  /** The same in CPU time (the process's threads, GC included): on a shared machine the wall clock also counts waiting for a core. */
  analysisCpuMs: number;
  rawTextCpuMs: number;
  cpuRatio: number;
  pagesPerSecond: number;
}

/** CPU time this process has used so far, in milliseconds. */
function cpuMs(): number {
  const { user, system } = process.cpuUsage();
  return (user + system) / 1000;
}

/** Analyses one file and scores it; an engine error scores as an empty prediction. */
export async function evaluateFile(name: string, pdf: Uint8Array, expected: SplitResult[]): Promise<CaseResult> {
  const pages = expected.reduce((sum, s) => sum + s.split.pages.length, 0);
  const started = performance.now();
  try {
    const predicted = await analyzeDocument(pdf.slice(), { fileName: `${name}.pdf` });
    return { name, pages, score: scoreCase(expected, predicted), expected, predicted, ms: performance.now() - started };
  } catch (error) {
    return { name, pages, score: scoreCase(expected, []), expected, predicted: [], ms: performance.now() - started, error: (error as Error).message };
  }
}

export interface GeneratedFile {
  name: string;
  pdf: Uint8Array;
  expected: SplitResult[];
}

/** The committed golden cases, or the held-out packets from seeds no test uses. */
export async function loadGenerated(set: "golden" | "holdout" = "golden"): Promise<GeneratedFile[]> {
  return Promise.all((set === "golden" ? goldenSet() : holdoutSet()).map((c) => c.make()));
}

/** Accuracy of the engine over the generated golden set. */
export async function evaluateGenerated(files: GeneratedFile[]): Promise<GeneratedReport> {
  const cases: CaseResult[] = [];
  for (const f of files) cases.push(await evaluateFile(f.name, f.pdf, f.expected));
  return { cases, summary: summarize(cases.map((c) => c.score)) };
}

/** The baseline: pdfjs opening the file and reading the text content of every page. */
export async function extractRawText(pdf: Uint8Array): Promise<number> {
  const doc = await getDocument({ data: pdf.slice(), isEvalSupported: false, useSystemFonts: false, verbosity: 0 }).promise;
  let items = 0;
  for (let i = 1; i <= doc.numPages; i++) {
    const page = await doc.getPage(i);
    items += (await page.getTextContent()).items.length;
    page.cleanup();
  }
  await doc.destroy();
  return items;
}

/** Times analysis against raw text extraction on the same files, interleaved file by file. */
export async function measureSpeed(files: { pdf: Uint8Array; expected: SplitResult[] }[], rounds = SPEED_ROUNDS): Promise<SpeedReport> {
  let analysisMs = 0;
  let rawTextMs = 0;
  let analysisCpuMs = 0;
  let rawTextCpuMs = 0;
  const pages = files.reduce((sum, f) => sum + f.expected.reduce((n, s) => n + s.split.pages.length, 0), 0);
  for (let round = 0; round < rounds; round++) {
    for (const f of files) {
      const [t0, c0] = [performance.now(), cpuMs()];
      await extractRawText(f.pdf);
      const [t1, c1] = [performance.now(), cpuMs()];
      await analyzeDocument(f.pdf.slice());
      const [t2, c2] = [performance.now(), cpuMs()];
      if (round === 0) continue;
      rawTextMs += t1 - t0;
      analysisMs += t2 - t1;
      rawTextCpuMs += c1 - c0;
      analysisCpuMs += c2 - c1;
    }
  }
  const counted = rounds - 1;
  return {
    files: files.length,
    pages,
    rounds: counted,
    analysisMs: analysisMs / counted,
    rawTextMs: rawTextMs / counted,
    ratio: analysisMs / rawTextMs,
    analysisCpuMs: analysisCpuMs / counted,
    rawTextCpuMs: rawTextCpuMs / counted,
    cpuRatio: analysisCpuMs / rawTextCpuMs,
    pagesPerSecond: (pages * counted) / (analysisMs / 1000),
  };
}
