/**
 * Queue benchmark (issue 11's measurements): scanned pages per minute with 1
 * and 2 readers (the worker's path: readDocument in isolated readers, OCR
 * included), and the latency of organization B's small digital PDF while
 * organization A floods the server with scanned files up to its caps (the
 * default running cap: A may hold every reader but one), beside what the
 * issue's target is measured against on the same server and load: B's file
 * alone, and one of A's scanned files alone (the target: B's file is served
 * within its own time plus at most one of A's jobs).
 * Run: `npx tsx bench/queue.ts` (PGlite; a few minutes of OCR; `--flood-only` skips the pages per
 * minute; `--org-max-running N` sets A's running cap, e.g. to every reader for comparison).
 */
import { pathToFileURL } from "node:url";
import { Agent, fetch as undiciFetch } from "undici";
import { readerPreload } from "@/lib/readers/ingest-isolated";
import { ProcessPool } from "@/lib/readers/pool";
import { readDocument } from "@/lib/jobs/read-document";
import { makeMixedPdf } from "@/test/fixtures/formats/scanned-pdf";
import { analyzeForm, invoicePages, makePdf } from "@/test/support/api-fixtures";
import { percentile, post } from "./endpoint-load";
import { startTarget, type Target } from "./endpoint-target";

/** Scanned one-page files read per reader count. */
const SCANNED_FILES_PER_READER = 3;
/** B's requests, one after another, while A floods. */
const B_REQUESTS = 20;
/** B's requests, and A's scanned files, with the server otherwise idle (before the flood). */
const B_ALONE_REQUESTS = 10;
const A_ALONE_REQUESTS = 3;
/**
 * A's scanned files, sent asynchronously (202) at a fixed rate whether or not
 * earlier ones have been answered (at most A_MAX_IN_FLIGHT at once): A offers
 * the same load to every version of the server. Clients that waited for each
 * answer sent more requests to a server that refused faster, so a faster
 * refusal looked like a slower B.
 */
const A_REQUESTS_PER_SECOND = 4;
const A_MAX_IN_FLIGHT = 16;

function scannedInvoice(): Promise<Uint8Array> {
  return makeMixedPdf([{ scanned: { lines: invoicePages()[0]! } }]);
}

/** Scanned pages per minute with `readers` readers, each file read as a worker reads it. */
async function scannedPagesPerMinute(readers: number, pdf: Uint8Array): Promise<number> {
  const pool = new ProcessPool({ size: readers, preload: readerPreload() });
  pool.warm();
  await pool.ready();
  const files = readers * SCANNED_FILES_PER_READER;
  let next = 0;
  let pages = 0;
  const started = performance.now();
  await Promise.all(
    Array.from({ length: readers }, async () => {
      while (next++ < files) {
        // Read the count only after the await: `pages += await …` reads `pages` before it, so one lane's
        // sum overwrote the other's and two readers counted about half their pages.
        const { pageCount } = await readDocument(pdf, { fileName: "scan.pdf", evidence: false, maxPages: 10 }, pool);
        pages += pageCount;
      }
    }),
  );
  const minutes = (performance.now() - started) / 60_000;
  pool.close();
  return pages / minutes;
}

/**
 * A's connections are never reused (`pipelining: 0`): a refused upload leaves
 * its connection to be closed by the server, and B's requests must not be
 * sent on it.
 */
const floodAgent = new Agent({ pipelining: 0 });

async function floodOnce(origin: string, key: string, pdf: Uint8Array): Promise<{ ok: boolean }> {
  // The multipart body as bytes: the registry's undici takes no FormData of Node's built-in fetch.
  const form = new Response(analyzeForm({ file: { bytes: pdf, name: "scan.pdf" } }));
  const body = new Uint8Array(await form.arrayBuffer());
  const response = await undiciFetch(`${origin}/v1/documents/analyze`, {
    method: "POST",
    headers: { "x-api-key": key, prefer: "respond-async", "content-type": form.headers.get("content-type")! },
    body,
    dispatcher: floodAgent,
  });
  await response.arrayBuffer();
  return { ok: response.status === 202 };
}

/** `--org-max-running N` sets the running cap (for comparison); the default cap otherwise. */
const capArgument = process.argv.indexOf("--org-max-running");
const orgMaxRunning = capArgument > 0 ? process.argv[capArgument + 1] : undefined;

/** B's requests one after another (ms, sorted). */
async function latenciesOf(target: Target, pdf: Uint8Array, key: string, requests: number): Promise<number[]> {
  const latencies: number[] = [];
  for (let i = 0; i < requests; i++) {
    const answer = await post(target, pdf, { key });
    if (!answer.ok) throw new Error(`request ${i} answered ${answer.status}`);
    latencies.push(answer.ms);
  }
  return latencies.sort((x, y) => x - y);
}

interface FloodRun {
  /** B's file with the server otherwise idle (ms, sorted). */
  alone: number[];
  /** One of A's scanned files with the server otherwise idle (ms, sorted). */
  aJob: number[];
  /** B's file while A floods (ms, sorted). */
  latencies: number[];
  aAccepted: number;
  aRefused: number;
}

/** B's latencies (ms, sorted) while A keeps its caps full of scanned files, and the same server's times without the flood. */
async function latencyUnderFlood(scanned: Uint8Array, digital: Uint8Array): Promise<FloodRun> {
  const target = await startTarget("pglite", { organizations: 2, env: { ANALYSIS_ORG_MAX_RUNNING: orgMaxRunning, ANALYSIS_ORG_MAX_JOBS: "8" } });
  const [aKey, bKey] = target.keys;
  let flooding = true;
  let aAccepted = 0;
  let aRefused = 0;
  const inFlight = new Set<Promise<void>>();
  let flood: Promise<void> = Promise.resolve();
  const floodAtRate = async () => {
    while (flooding) {
      if (inFlight.size < A_MAX_IN_FLIGHT) {
        // A refusal (429/503) comes before the body is read; the client may see it as a closed socket.
        const sent: Promise<void> = floodOnce(target.server.origin, aKey!, scanned)
          .catch(() => ({ ok: false }))
          .then((answer) => void (answer.ok ? aAccepted++ : aRefused++))
          .finally(() => inFlight.delete(sent));
        inFlight.add(sent);
      }
      await new Promise((resolve) => setTimeout(resolve, 1000 / A_REQUESTS_PER_SECOND));
    }
    await Promise.all(inFlight);
  };
  try {
    const alone = await latenciesOf(target, digital, bKey!, B_ALONE_REQUESTS);
    const aJob = await latenciesOf(target, scanned, aKey!, A_ALONE_REQUESTS);
    flood = floodAtRate();
    // Let A fill its caps first.
    await new Promise((resolve) => setTimeout(resolve, 3_000));
    const latencies = await latenciesOf(target, digital, bKey!, B_REQUESTS);
    return { alone, aJob, latencies, aAccepted, aRefused };
  } finally {
    flooding = false;
    await flood;
    await target.stop();
    await floodAgent.close();
  }
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? "").href) {
  const scanned = await scannedInvoice();
  const digital = await makePdf([invoicePages()[0]!]);
  if (!process.argv.includes("--flood-only")) for (const readers of [1, 2]) console.log(`scanned pages per minute, ${readers} reader(s): ${(await scannedPagesPerMinute(readers, scanned)).toFixed(1)}`);
  const { alone, aJob, latencies, aAccepted, aRefused } = await latencyUnderFlood(scanned, digital);
  const ms = (sorted: number[], q: number) => percentile(sorted, q).toFixed(0);
  console.log(`B's one-page digital PDF alone: p50 ${ms(alone, 0.5)} ms, p99 ${ms(alone, 0.99)} ms over ${alone.length} requests; A's scanned file alone: median ${ms(aJob, 0.5)} ms`);
  console.log(
    `B's one-page digital PDF while A floods (running cap ${orgMaxRunning ?? "default"}; A sends ${A_REQUESTS_PER_SECOND} scanned files a second: ${aAccepted} accepted, ${aRefused} refused 429/503): ` +
      `p50 ${ms(latencies, 0.5)} ms, p99 ${ms(latencies, 0.99)} ms over ${latencies.length} requests`,
  );
  // The target: B's own time plus at most one of A's jobs.
  const bound = percentile(alone, 0.99) + percentile(aJob, 0.5);
  console.log(`target (B alone p99 + one of A's jobs): ${bound.toFixed(0)} ms; B's p99 under the flood ${percentile(latencies, 0.99) <= bound ? "meets" : "misses"} it`);
}
