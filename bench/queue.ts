/**
 * Queue benchmark (issue 11's measurements): scanned pages per minute with 1
 * and 2 readers (the worker's path: readDocument in isolated readers, OCR
 * included), and the latency of organization B's small digital PDF while
 * organization A floods the server with scanned files up to its caps (the
 * default running cap: A may hold every reader but one).
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
import { startTarget } from "./endpoint-target";

/** Scanned one-page files read per reader count. */
const SCANNED_FILES_PER_READER = 3;
/** B's requests, one after another, while A floods. */
const B_REQUESTS = 20;
/** A's clients, each sending scanned files asynchronously (202) as fast as it is admitted. */
const A_CLIENTS = 4;
const A_BACKOFF_MS = 200;

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
      while (next++ < files) pages += (await readDocument(pdf, { fileName: "scan.pdf", evidence: false, maxPages: 10 }, pool)).pageCount;
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

/** B's latencies (ms, sorted) while A keeps its caps full of scanned files. */
async function latencyUnderFlood(scanned: Uint8Array, digital: Uint8Array): Promise<{ latencies: number[]; aAccepted: number; aRefused: number }> {
  const target = await startTarget("pglite", { organizations: 2, env: { ANALYSIS_ORG_MAX_RUNNING: orgMaxRunning, ANALYSIS_ORG_MAX_JOBS: "8" } });
  const [aKey, bKey] = target.keys;
  let flooding = true;
  let aAccepted = 0;
  let aRefused = 0;
  const flood = Array.from({ length: A_CLIENTS }, async () => {
    while (flooding) {
      // A refusal (429/503) comes before the body is read; the client may see it as a closed socket.
      const answer = await floodOnce(target.server.origin, aKey!, scanned).catch(() => ({ ok: false }));
      if (answer.ok) aAccepted++;
      else {
        aRefused++;
        await new Promise((resolve) => setTimeout(resolve, A_BACKOFF_MS));
      }
    }
  });
  try {
    // Let A fill its caps first.
    await new Promise((resolve) => setTimeout(resolve, 3_000));
    const latencies: number[] = [];
    for (let i = 0; i < B_REQUESTS; i++) {
      const answer = await post(target, digital, { key: bKey });
      if (!answer.ok) throw new Error(`B's request ${i} answered ${answer.status}`);
      latencies.push(answer.ms);
    }
    return { latencies: latencies.sort((x, y) => x - y), aAccepted, aRefused };
  } finally {
    flooding = false;
    await Promise.all(flood);
    await target.stop();
    await floodAgent.close();
  }
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? "").href) {
  const scanned = await scannedInvoice();
  const digital = await makePdf([invoicePages()[0]!]);
  if (!process.argv.includes("--flood-only")) for (const readers of [1, 2]) console.log(`scanned pages per minute, ${readers} reader(s): ${(await scannedPagesPerMinute(readers, scanned)).toFixed(1)}`);
  const { latencies, aAccepted, aRefused } = await latencyUnderFlood(scanned, digital);
  console.log(
    `B's one-page digital PDF while A floods (running cap ${orgMaxRunning ?? "default"}; ${A_CLIENTS} clients of scanned files; A: ${aAccepted} accepted, ${aRefused} refused 429/503): ` +
      `p50 ${percentile(latencies, 0.5).toFixed(0)} ms, p99 ${percentile(latencies, 0.99).toFixed(0)} ms over ${latencies.length} requests`,
  );
}
