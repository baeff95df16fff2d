/**
 * `npm run bench`: the headline first, the engine on the held-out layout
 * families (digital, and a scanned slice) beside the development families
 * (bench/families-score.ts); then accuracy and speed on the generated golden set, then
 * on ../shared/corpus when it exists, then the endpoint benchmark when
 * bench/endpoint.ts is there; between them, the examination rules' detection
 * precision and recall on planted discrepancies. Writes bench/results/latest.json.
 * Between the examination and the corpus, every input format (scanned, photo,
 * TIFF, DOCX, EML) of the same generated packets, with the OCR cost against the
 * bare tesseract CLI (bench/formats.ts; a few minutes of OCR on two cores).
 * Flags: --ocr also scores scanned corpus files; --no-formats skips the per-format
 * section; --no-endpoint skips the endpoint run; --no-scanned skips the scanned held-out slice.
 */
import { existsSync, mkdirSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { CORPUS_DIR, corpusExists, evaluateCorpus, type CorpusReport } from "./corpus";
import { evaluateGenerated, loadGenerated, measureSpeed, type CaseResult } from "./engine";
import { formatFamilies } from "./families";
import { evaluateFamilies, type FamiliesReport } from "./families-score";
import { evaluateFormats, formatFormats, type FormatsReport } from "./formats";
import { f1, totalCounts } from "./metrics";
import { formatConfusion, formatCorpus, formatKeys, formatSpeed, formatSummary } from "./report";

/** Files listed as the slowest per page, and as the weakest by field F1, after the accuracy pass. */
const SLOWEST_SHOWN = 5;
const WEAKEST_SHOWN = 5;
const here = dirname(fileURLToPath(import.meta.url));
const args = new Set(process.argv.slice(2));

interface EndpointModule {
  benchEndpoint: () => Promise<unknown>;
  formatEndpoint: (report: never) => string;
}

async function runEndpoint(): Promise<unknown> {
  const file = join(here, "endpoint.ts");
  if (args.has("--no-endpoint") || !existsSync(file)) return undefined;
  const endpoint = (await import(file)) as EndpointModule;
  const report = await endpoint.benchEndpoint();
  console.log(`\n== Endpoint\n${endpoint.formatEndpoint(report as never)}`);
  return report;
}

/** What latest.json keeps of a case: its scores and timing, not the full arrays. */
const recordOf = ({ name, pages, score, ms, error }: CaseResult) => ({ name, pages, score, ms, error });
const familiesRecord = (report: FamiliesReport) => ({ ...report, cases: report.cases.map(recordOf) });
/** Keys of the weakest fields shown for the held-out part and the corpus. */
const WEAKEST_KEYS = 25;

// The headline: layout mechanisms the engine was never tuned on, then the part it is developed on.
const heldOut = await evaluateFamilies("holdout", "digital");
console.log(`== HEADLINE: held-out layout families\n\n${formatFamilies(heldOut, false)}\n`);
const heldOutScanned = args.has("--no-scanned") ? undefined : await evaluateFamilies("holdout", "scanned");
if (heldOutScanned) console.log(`${formatFamilies(heldOutScanned, false)}\n`);
const development = await evaluateFamilies("development", "digital");
console.log(`== Development layout families (engine work is measured here)\n\n${formatFamilies(development, false)}\n`);

const files = await loadGenerated();
const generated = await evaluateGenerated(files);
console.log(`== Generated golden set (${files.length} files, digital PDFs)\n`);
console.log(formatSummary("Engine on generated fixtures", generated.summary));
const failures = generated.cases.filter((c) => c.error);
for (const c of failures) console.log(`  error in ${c.name}: ${c.error}`);

const caseFieldF1 = (c: CaseResult) => f1(totalCounts(c.score.fields));
const weakest = [...generated.cases].sort((a, b) => caseFieldF1(a) - caseFieldF1(b)).slice(0, WEAKEST_SHOWN);
console.log(`\nLowest field F1: ${weakest.map((c) => `${c.name} ${caseFieldF1(c).toFixed(3)}`).join(", ")}`);
const slowest = [...generated.cases].sort((a, b) => b.ms / b.pages - a.ms / a.pages).slice(0, SLOWEST_SHOWN);
console.log(`\nSlowest per page (first pass): ${slowest.map((c) => `${c.name} ${(c.ms / c.pages).toFixed(0)} ms/page`).join(", ")}`);

const holdout = await evaluateGenerated(await loadGenerated("holdout"));
console.log(`\n${formatSummary(`Engine on fixed-layout packets from unseen seeds (${holdout.cases.length} packets; the same templates as the golden set, not the held-out families)`, holdout.summary)}`);

const speed = await measureSpeed(files);
console.log(`\n${formatSpeed(speed)}`);

// Detection precision and recall per examination rule, on presentations with planted discrepancies.
console.log("\n== Examination (planted discrepancies per rule)\n");
await import("../test/fixtures/examine/print-metrics");

let formats: FormatsReport | undefined;
if (!args.has("--no-formats")) {
  console.log("\n== Formats (the same generated packets as digital PDF, scanned PDF, photos, TIFF, DOCX and e-mail)\n");
  formats = (await evaluateFormats((line) => console.log(line))).report;
  console.log(`\n${formatFormats(formats)}`);
}

let corpus: CorpusReport | undefined;
if (corpusExists()) {
  corpus = await evaluateCorpus(CORPUS_DIR, { ocr: args.has("--ocr") });
  console.log(`\n== Corpus ${CORPUS_DIR}\n`);
  console.log(formatCorpus(corpus));
  console.log(`\nCorpus: weakest ${WEAKEST_KEYS} keys\n${formatKeys(corpus.summary, WEAKEST_KEYS)}`);
  console.log(`\nCorpus page types: expected (rows) against predicted (columns)\n${formatConfusion(corpus.summary)}`);
} else console.log(`\n(no corpus at ${CORPUS_DIR}: skipped)`);

const endpoint = await runEndpoint();

const resultsDir = join(here, "results");
mkdirSync(resultsDir, { recursive: true });
const latest = {
  at: new Date().toISOString(),
  families: {
    holdout: familiesRecord(heldOut),
    ...(heldOutScanned ? { holdoutScanned: familiesRecord(heldOutScanned) } : {}),
    development: familiesRecord(development),
  },
  generated: { summary: generated.summary, cases: generated.cases.map(recordOf) },
  holdout: { summary: holdout.summary, cases: holdout.cases.map(recordOf) },
  speed,
  formats,
  corpus,
  endpoint,
};
writeFileSync(join(resultsDir, "latest.json"), `${JSON.stringify(latest, null, 1)}\n`);
console.log(`\nwrote ${join(resultsDir, "latest.json")}`);
