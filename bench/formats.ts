/**
 * The engine on every input format of the same generated documents: digital
 * PDF, scanned PDF (grey JPEG pages at 200–300 dpi, askew, speckled, one
 * packet upside down and one sideways), photos (one JPEG or PNG per one-page
 * document), a multi-page TIFF, the packet retyped in Word, and the packet
 * attached to an e-mail. Each row is scored with bench/metrics.ts and set
 * beside the digital PDF score of exactly the same documents; the OCR cost of
 * the pipeline is timed against the bare tesseract command line on the same
 * page images. Seeds are fixed and used by no test.
 */
import { performance } from "node:perf_hooks";
import { PDFDocument } from "pdf-lib";
import { analyzeDocument, type DocumentTypeId, type SplitResult } from "@/lib/analysis";
import { compareOcrOverhead, type EngineTiming } from "@/lib/analysis/ingest/ocr-compare";
import { DEFAULT_PAGE_SEGMENTATION_MODE } from "@/lib/analysis/ingest/ocr-tesseract";
import { OCR_RENDER_DPI } from "@/lib/analysis/ingest/render";
import { PRESENTATION_TYPES, generatePacket, type Fixture } from "@/test/fixtures/generator/index";
import { rasterisePdf } from "@/test/fixtures/formats/scan-fixtures";
import { docxOfPdf, emlOfPdf, photographPdf, scanPdf, shiftExpected, tiffOfPdf, type ScanVariant } from "@/test/fixtures/formats/variants";
import { scoreCase, summarize, type CaseScore, type Summary } from "./metrics";
import { formatTable } from "./report";

/** Every type of the schema, Other included: the eleven types and Other of a full presentation. */
const ALL_TYPES: readonly DocumentTypeId[] = [...PRESENTATION_TYPES, "letter_of_credit", "contract"];
/** Two full presentations (17 and 13 pages) and a short one, from seeds no test uses. */
const FULL_PACKET_SEEDS = [9101, 9102] as const;
const SHORT_PACKET_SEED = 9103;
const SHORT_PACKET_TYPES: readonly DocumentTypeId[] = ["commercial_invoice", "bill_of_lading", "certificate_of_origin", "packing_list", "fumigation_certificate"];
/** Scans as copiers deliver them; the second packet fed upside down, the short one sideways. */
const SCANS: ScanVariant[] = [
  { dpi: 200, skewDegrees: 1, specks: 400, quality: 75 },
  { dpi: 300, skewDegrees: -0.6, specks: 1200, quarterTurns: 2, quality: 80 },
];
const SIDEWAYS_SCAN: ScanVariant = { dpi: 250, skewDegrees: 0.8, specks: 600, quarterTurns: 1 };
/** Phone photos: lower resolution, more askew, no resolution in the file. */
const PHOTO: ScanVariant = { dpi: 150, skewDegrees: 1.5, specks: 300, quality: 70 };
const SCREENSHOT_DPI = 200;
const TIFF_DPI = 200;
/** At most this many one-page documents photographed: OCR is the slow part. */
const MAX_PHOTOS = 6;
/** Page images timed for the OCR cost ratio: upright scans, and upside-down ones apart. */
const OCR_COST_UPRIGHT_PAGES = 5;
const OCR_COST_TURNED_PAGES = 2;

interface FormatCase {
  name: string;
  bytes: Uint8Array;
  fileName: string;
  expected: SplitResult[];
  /** The digital PDF and expected array of the same documents, for the side-by-side score. */
  digital: { pdf: Uint8Array; expected: SplitResult[] };
  /** Pages of the input that are not trade documents and are left out of scoring (an e-mail's body). */
  ignorePages?: number[];
}

interface FormatRow {
  format: string;
  files: number;
  pages: number;
  seconds: number;
  summary: Summary;
  digital: Summary;
  errors: string[];
}

export interface FormatsReport {
  rows: FormatRow[];
  ocrCost?: { upright: OcrCost; turned: OcrCost };
}

const pagesOf = (expected: SplitResult[]) => expected.reduce((n, s) => n + s.split.pages.length, 0);

/** Splits without the ignored pages, and without splits left empty by that. */
function withoutPages(results: SplitResult[], ignore: number[] = []): SplitResult[] {
  if (ignore.length === 0) return results;
  return results
    .map((r) => ({ ...r, split: { ...r.split, pages: r.split.pages.filter((p) => !ignore.includes(p)) } }))
    .filter((r) => r.split.pages.length > 0);
}

/** One page of a PDF as a PDF of its own. */
async function pageOf(pdf: Uint8Array, page: number): Promise<Uint8Array> {
  const source = await PDFDocument.load(pdf);
  const out = await PDFDocument.create();
  const [copied] = await out.copyPages(source, [page - 1]);
  out.addPage(copied!);
  return out.save();
}

/** The one-page documents of a packet, each as its own fixture. */
async function onePageDocuments(packet: Fixture): Promise<{ pdf: Uint8Array; expected: SplitResult[] }[]> {
  const single = packet.expected.filter((s) => s.split.pages.length === 1);
  return Promise.all(single.map(async (s) => ({ pdf: await pageOf(packet.pdf, s.split.pages[0]!), expected: [{ ...s, split: { ...s.split, pages: [1] } }] })));
}

/** The fixed cases of every format. */
async function makeFormatCases(): Promise<Record<string, FormatCase[]>> {
  const full = await Promise.all(FULL_PACKET_SEEDS.map((seed, i) => generatePacket({ seed, types: ALL_TYPES, copies: 1 - i, secondInvoice: i === 1 })));
  const short = await generatePacket({ seed: SHORT_PACKET_SEED, types: SHORT_PACKET_TYPES, shuffle: false });
  const digitalOf = (f: Fixture) => ({ pdf: f.pdf, expected: f.expected });
  const same = (f: Fixture, name: string, bytes: Uint8Array, ext: string): FormatCase => ({ name, bytes, fileName: `${name}.${ext}`, expected: f.expected, digital: digitalOf(f) });

  const scanned = await Promise.all(full.map(async (f, i) => same(f, `${f.name}-scan`, await scanPdf(f.pdf, SCANS[i]!), "pdf")));
  scanned.push(same(short, `${short.name}-scan-sideways`, await scanPdf(short.pdf, SIDEWAYS_SCAN), "pdf"));

  const singles = (await onePageDocuments(full[1]!)).slice(0, MAX_PHOTOS);
  const photos = await Promise.all(singles.map(async (doc, i) => {
    const type = doc.expected[0]!.split.document_type.toLowerCase().replace(/\s+/g, "-");
    const [image] = i % 2 === 0
      ? await photographPdf(doc.pdf, PHOTO)
      : await rasterisePdf(doc.pdf, { dpi: SCREENSHOT_DPI, format: "png", grey: true });
    const ext = i % 2 === 0 ? "jpg" : "png";
    return { name: `photo-${type}`, bytes: image!, fileName: `photo-${type}.${ext}`, expected: doc.expected, digital: doc };
  }));

  const everything = [...full, short];
  return {
    "digital PDF": everything.map((f) => same(f, f.name, f.pdf, "pdf")),
    "scanned PDF": scanned,
    "photo (JPEG/PNG)": photos,
    "TIFF (multi-page)": [same(short, `${short.name}-tiff`, await tiffOfPdf(short.pdf, TIFF_DPI), "tiff")],
    DOCX: await Promise.all(everything.map(async (f) => same(f, `${f.name}-docx`, await docxOfPdf(f.pdf), "docx"))),
    EML: everything.map((f) => ({ ...same(f, `${f.name}-eml`, emlOfPdf(f.pdf, f.name), "eml"), expected: shiftExpected(f.expected, 1), ignorePages: [1] })),
  };
}

export interface FormatCaseResult {
  name: string;
  score: CaseScore;
  predicted: SplitResult[];
  expected: SplitResult[];
  ms: number;
  error?: string;
}

async function runCase(c: FormatCase): Promise<FormatCaseResult> {
  const started = performance.now();
  try {
    const predicted = withoutPages(await analyzeDocument(c.bytes.slice(), { fileName: c.fileName }), c.ignorePages);
    return { name: c.name, score: scoreCase(c.expected, predicted), predicted, expected: c.expected, ms: performance.now() - started };
  } catch (error) {
    return { name: c.name, score: scoreCase(c.expected, []), predicted: [], expected: c.expected, ms: performance.now() - started, error: (error as Error).message };
  }
}

interface OcrCost {
  pages: number;
  cliMsPerPage: number;
  pipelineMsPerPage: number;
  ratio: number;
}

async function timeOcr(images: Uint8Array[]): Promise<OcrCost> {
  const [cli, pipeline] = (await compareOcrOverhead(images, OCR_RENDER_DPI)) as [EngineTiming, EngineTiming];
  return { pages: images.length, cliMsPerPage: cli.msPerPage, pipelineMsPerPage: pipeline.msPerPage, ratio: pipeline.msPerPage / cli.msPerPage };
}

/**
 * The pipeline's OCR (ocrImage) against the bare CLI on the same 300 dpi renders
 * of scanned pages, upright pages and upside-down ones apart: a page lying
 * turned is read a second time upright, by design, so it costs about twice.
 */
async function measureOcrCost(cases: FormatCase[]): Promise<FormatsReport["ocrCost"]> {
  const [upright, turned] = cases;
  if (!upright || !turned) return undefined;
  const render = async (pdf: Uint8Array, pages: number) => {
    const images: Uint8Array[] = [];
    for (let p = 1; p <= pages; p++) images.push(...(await rasterisePdf(await pageOf(pdf, p), { dpi: OCR_RENDER_DPI, format: "png", grey: true })));
    return images;
  };
  return { upright: await timeOcr(await render(upright.bytes, OCR_COST_UPRIGHT_PAGES)), turned: await timeOcr(await render(turned.bytes, OCR_COST_TURNED_PAGES)) };
}

/** Runs every format's cases; `log` gets one line per case as it finishes. */
export async function evaluateFormats(log: (line: string) => void = () => {}): Promise<{ report: FormatsReport; cases: Record<string, FormatCaseResult[]> }> {
  const all = await makeFormatCases();
  const rows: FormatRow[] = [];
  const results: Record<string, FormatCaseResult[]> = {};
  for (const [format, cases] of Object.entries(all)) {
    const started = performance.now();
    const scored: FormatCaseResult[] = [];
    for (const c of cases) {
      const r = await runCase(c);
      scored.push(r);
      log(`  ${format.padEnd(18)} ${c.name.padEnd(34)} ${(r.ms / 1000).toFixed(1).padStart(6)} s${r.error ? `  error: ${r.error}` : ""}`);
    }
    const seconds = (performance.now() - started) / 1000;
    const digital = await Promise.all(cases.map(async (c) => scoreCase(c.digital.expected, await analyzeDocument(c.digital.pdf.slice()))));
    results[format] = scored;
    rows.push({
      format,
      files: cases.length,
      pages: cases.reduce((n, c) => n + pagesOf(c.expected), 0),
      seconds,
      summary: summarize(scored.map((r) => r.score)),
      digital: summarize(digital),
      errors: scored.filter((r) => r.error).map((r) => `${r.name}: ${r.error}`),
    });
  }
  const ocrCost = await measureOcrCost(all["scanned PDF"] ?? []);
  return { report: { rows, ocrCost }, cases: results };
}

const pct = (x: number) => `${(x * 100).toFixed(1)}%`;
const num = (x: number) => x.toFixed(3);

export function formatFormats(report: FormatsReport): string {
  const rows = report.rows.map((r) => [
    r.format, String(r.files), String(r.pages),
    pct(r.summary.pageAccuracy), num(r.summary.splitF1), num(r.summary.fieldF1),
    `${pct(r.digital.pageAccuracy)} / ${num(r.digital.splitF1)} / ${num(r.digital.fieldF1)}`,
    r.seconds.toFixed(1),
  ]);
  const lines = [formatTable(["format", "files", "pages", "page-type", "split F1", "field F1", "same documents as digital PDF", "seconds"], rows)];
  for (const r of report.rows) for (const e of r.errors) lines.push(`  error ${r.format} ${e}`);
  const cost = report.ocrCost;
  const line = (label: string, c: OcrCost) =>
    `  ${label}: ${c.pages} pages, bare tesseract CLI ${c.cliMsPerPage.toFixed(0)} ms/page, pipeline (ocrImage) ${c.pipelineMsPerPage.toFixed(0)} ms/page, ratio ${c.ratio.toFixed(2)}x`;
  if (cost) {
    lines.push("", `OCR cost, same ${OCR_RENDER_DPI} dpi renders of scanned pages, same settings (psm ${DEFAULT_PAGE_SEGMENTATION_MODE}, LSTM, 1 thread), alternating page by page:`);
    lines.push(line("upright", cost.upright), line("upside down (read again upright by design)", cost.turned));
  }
  return lines.join("\n");
}
