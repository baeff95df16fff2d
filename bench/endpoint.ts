/**
 * Endpoint benchmark: what a one-page digital invoice costs at each layer, in
 * one run on this machine. For a PDF drawn with the 14 standard fonts and one
 * with embedded fonts (the generator's invoice, as Word, Chromium or an ERP
 * make them): raw pdfjs text extraction, the engine in-process
 * (analyzeDocument), and POST /v1/documents/analyze served by the real route
 * module in its own process (test/support/serve.ts) with its readers; and the
 * raw limit, raw pdfjs on every core (raw-limit.ts). Then the
 * embedded-font file at 1, 2 and 8 clients — the first 8-client run straight
 * after start, before any other request, a sustained run at 2 clients, and one
 * client alone after another start — and resident memory of the server and each idle reader. On embedded PGlite, and on PostgreSQL when it answers.
 * Run alone: `npx tsx bench/endpoint.ts` (PostgreSQL from TEST_DATABASE_URL; `--pglite` for PGlite only).
 */
import { availableParallelism } from "node:os";
import { pathToFileURL } from "node:url";
import { analyzeDocument } from "@/lib/analysis";
import { generateDocument } from "@/test/fixtures/generator/index";
import { invoicePages, makePdf } from "@/test/support/api-fixtures";
import { extractRawText } from "./engine";
import { startTarget, type Database, type Target } from "./endpoint-target";
import { formatEndpoint } from "./endpoint-report";
import { measureRawLimit, RAW_WARM_READS } from "./raw-limit";
import { idleMemory, post, runClients, type ClientsRun, type IdleMemory } from "./endpoint-load";

/** Requests of the 8-client run from the first request after start: the cold ones are what it measures. */
const COLD_REQUESTS = 80;
/**
 * Requests of each run at 1, 2 and 8 clients once warm: a few seconds each. At
 * 80 (under a second at 2 clients) one run's req/s moved with whatever else the
 * machine did in that second, and the readers' code still grew faster within it.
 */
const REQUESTS_PER_RUN = 320;
const CONCURRENCIES = [1, 2, 8] as const;
/**
 * Requests of the sustained run at 2 clients (half a minute or more): what a
 * server that has run a while gives, its tables holding thousands of ended
 * jobs. A run of REQUESTS_PER_RUN cannot show a cost that grows with them (the
 * queue's lookups and the admission's count did, until migration 0024 and the
 * table upkeep).
 */
const SUSTAINED_REQUESTS = 3_000;
/** Timed in-process rounds per file, after RAW_WARM_READS untimed ones (warm code, as the readers' is); medians are reported. */
const INPROCESS_ROUNDS = 25;
/** Requests of the single client that starts on a fresh server (its first ones are the cold ones). */
const COLD_SINGLE_REQUESTS = 20;
/** Requests per file at 1 client when comparing the endpoint with the engine. */
const COMPARE_REQUESTS = 40;
/** A generated invoice of one page with embedded fonts (seed 1 is the boxed-grid layout, one page). */
const EMBEDDED_SEED = 1;

export interface FileCost {
  file: "standard fonts" | "embedded fonts";
  rawPdfjsMs: number;
  engineMs: number;
  /** p50 of the endpoint at 1 client, per database. */
  endpointMs: Partial<Record<Database, number>>;
}

/** When a run was made: from the first request after a start, once warm, or sustained (SUSTAINED_REQUESTS). */
export type RunPhase = "first after start" | "warm" | "sustained";

export interface EndpointReport {
  cores: number;
  /** Documents a second raw pdfjs reads of the embedded-font invoice, one warm process per core (raw-limit.ts). */
  rawLimit: number;
  files: FileCost[];
  runs: (ClientsRun & { database: Database; phase: RunPhase })[];
  memory: (IdleMemory & { database: Database })[];
}

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)] ?? NaN;
}

/** Raw pdfjs and the engine on the same bytes, interleaved, in this process, once both are warm. */
async function inProcessCosts(pdf: Uint8Array): Promise<{ rawPdfjsMs: number; engineMs: number }> {
  const raw: number[] = [];
  const engine: number[] = [];
  for (let round = 0; round < RAW_WARM_READS + INPROCESS_ROUNDS; round++) {
    const t0 = performance.now();
    await extractRawText(pdf);
    const t1 = performance.now();
    await analyzeDocument(pdf.slice());
    const t2 = performance.now();
    if (round < RAW_WARM_READS) continue;
    raw.push(t1 - t0);
    engine.push(t2 - t1);
  }
  return { rawPdfjsMs: median(raw), engineMs: median(engine) };
}

export async function benchEndpoint(options: { databases?: Database[] } = {}): Promise<EndpointReport> {
  const standard = await makePdf([invoicePages()[0]!]);
  const embedded = (await generateDocument({ type: "commercial_invoice", seed: EMBEDDED_SEED })).pdf;
  const inputs = [
    { file: "standard fonts" as const, pdf: standard },
    { file: "embedded fonts" as const, pdf: embedded },
  ];
  // First, on a machine that runs nothing else of the benchmark's.
  const rawLimit = await measureRawLimit(embedded);
  const files: FileCost[] = [];
  for (const input of inputs) files.push({ file: input.file, ...(await inProcessCosts(input.pdf)), endpointMs: {} });

  const report: EndpointReport = { cores: availableParallelism(), rawLimit, files, runs: [], memory: [] };
  for (const database of options.databases ?? ["pglite", "postgresql"]) {
    let target: Target;
    try {
      target = await startTarget(database);
    } catch (error) {
      console.error(`endpoint bench: skipped ${database}: ${error instanceof Error ? error.message : String(error)}`);
      continue;
    }
    try {
      // From the first request after start: the readers must already be warm.
      report.runs.push({ database, phase: "first after start", ...(await runClients(target, embedded, 8, COLD_REQUESTS)) });
      for (const [i, input] of inputs.entries()) {
        files[i]!.endpointMs[database] = (await runClients(target, input.pdf, 1, COMPARE_REQUESTS)).p50Ms;
      }
      for (const clients of CONCURRENCIES) report.runs.push({ database, phase: "warm", ...(await runClients(target, embedded, clients, REQUESTS_PER_RUN)) });
      report.runs.push({ database, phase: "sustained", ...(await runClients(target, embedded, 2, SUSTAINED_REQUESTS)) });
      report.memory.push({ database, ...(await idleMemory(target)) });
    } finally {
      await target.stop();
    }
    // One client from the first request after another start (issue 11): what a lone caller meets
    // just after a deploy, the readers' and the server's first requests included.
    try {
      const fresh = await startTarget(database);
      try {
        report.runs.push({ database, phase: "first after start", ...(await runClients(fresh, embedded, 1, COLD_SINGLE_REQUESTS)) });
      } finally {
        await fresh.stop();
      }
    } catch (error) {
      console.error(`endpoint bench: no single-client run after start on ${database}: ${error instanceof Error ? error.message : String(error)}`);
    }
  }
  return report;
}

export { formatEndpoint, post };

if (import.meta.url === pathToFileURL(process.argv[1] ?? "").href) {
  const databases: Database[] | undefined = process.argv.includes("--pglite") ? ["pglite"] : undefined;
  console.log(formatEndpoint(await benchEndpoint({ databases })));
}
