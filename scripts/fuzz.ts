/**
 * `npm run fuzz`: mutated PDF, DOCX, EML, PNG, JPEG, TIFF and WebP files sent
 * to POST /v1/documents/analyze on a running production server, counting the
 * answers by status. The target: no 5XX, no answer later than the time cap,
 * no reader that crashed or outlived its job, and the server's memory back to
 * its baseline. Not part of `npm test` (it takes long); needs a build:
 *
 *   NEXT_DIST_DIR=.next npx next build
 *   npm run fuzz -- [--per-format 1000] [--formats pdf,eml] [--seed 1] [--port 3290] [--concurrency 2] [--rounds 1]
 *
 * A case that got a 5XX, no answer or a crashed reader is written to test-results/fuzz-cases/
 * to be replayed with curl; the report goes to test-results/fuzz-report.json.
 */
import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { parseArgs } from "node:util";
import { FORMAT_MIME_TYPES } from "@/lib/analysis";
import { caseRandom, mutate } from "./fuzz-mutators";
import { FUZZ_FORMATS, makeSeeds, type FuzzFormat } from "./fuzz-seeds";
import { heapAfterGc, isReader, processTree, startFuzzServer, waitForRest, type FuzzServer, type ProcessInfo } from "./fuzz-server";

const { values } = parseArgs({
  options: {
    "per-format": { type: "string", default: "1000" },
    formats: { type: "string", default: FUZZ_FORMATS.join(",") },
    seed: { type: "string", default: "1" },
    port: { type: "string", default: "3290" },
    concurrency: { type: "string", default: "2" },
    rounds: { type: "string", default: "1" },
    "time-cap-ms": { type: "string", default: "60000" },
  },
});
const PER_FORMAT = Number(values["per-format"]);
const FORMATS = values.formats!.split(",") as FuzzFormat[];
const SEED = Number(values.seed);
const CONCURRENCY = Number(values.concurrency);
/** The same cases sent this many times: memory that grows every round is held; memory that stops growing is a high-water mark. */
const ROUNDS = Number(values.rounds);
/** A reader is stopped at half the cap (in processor time, and on the clock), so an answer after the cap is a hang, not a slow file. */
const TIME_CAP_MS = Number(values["time-cap-ms"]);
const READER_TIMEOUT_MS = Math.floor(TIME_CAP_MS / 2);
/** Memory counts as back to baseline within this much (allocator caches, JIT code). */
const MEMORY_TOLERANCE_BYTES = 64 * 2 ** 20;
/**
 * After the reader pool is at rest: V8 gives back the young generation (32 MB) of a reader that has
 * just replaced another after about 20 s idle, as it did in the readers that rested before.
 */
const SETTLE_MS = 30_000;
const OUT = "test-results";

type Outcome = { status: number; detail: string; ms: number } | { status: "hang" | "network-error"; detail: string; ms: number };

async function send(url: string, key: string, format: FuzzFormat, bytes: Uint8Array): Promise<Outcome> {
  const form = new FormData();
  form.append("file", new Blob([Buffer.from(bytes)], { type: FORMAT_MIME_TYPES[format] }), `fuzz.${format}`);
  const started = performance.now();
  try {
    const response = await fetch(`${url}/v1/documents/analyze`, { method: "POST", body: form, headers: { "x-api-key": key }, signal: AbortSignal.timeout(TIME_CAP_MS) });
    const text = await response.text();
    const detail = response.ok ? "" : ((JSON.parse(text) as { detail?: string }).detail ?? text.slice(0, 200));
    return { status: response.status, detail, ms: performance.now() - started };
  } catch (error) {
    const ms = performance.now() - started;
    // fetch says only "fetch failed": what failed (a reset or closed socket, a refused connection) is its cause.
    const cause = (error as { cause?: { code?: string; message?: string } }).cause;
    const detail = cause ? `${String(error)}: ${cause.code ?? ""} ${cause.message ?? ""}`.trim() : String(error);
    return (error as Error).name === "TimeoutError" ? { status: "hang", detail: "", ms } : { status: "network-error", detail, ms };
  }
}

const sum = (ps: ProcessInfo[]) => ps.reduce((n, p) => n + p.rssBytes, 0);
const mb = (bytes: number) => `${(bytes / 2 ** 20).toFixed(0)} MB`;

/**
 * Memory of the server process alone, of its readers and of its whole tree, once the reader pool is
 * at rest (restSeconds: how long that took; undefined: not within waitForRest's bound), and the
 * server's live heap after a full collection (see heapAfterGc).
 */
async function settledMemory(server: FuzzServer): Promise<{
  restSeconds: number | undefined;
  serverBeforeGc: number;
  server: number;
  heapUsed: number;
  tree: number;
  readers: number;
  readerBytes: number;
  others: ProcessInfo[];
}> {
  const restSeconds = await waitForRest(server);
  await new Promise((resolve) => setTimeout(resolve, SETTLE_MS));
  const rootPid = server.process.pid!;
  // An idle server collects no garbage: its resident memory before a collection counts garbage too.
  const serverBeforeGc = processTree(rootPid).find((p) => p.pid === rootPid)?.rssBytes ?? 0;
  const heap = await heapAfterGc(server);
  const tree = processTree(rootPid);
  const root = tree.find((p) => p.pid === rootPid);
  const children = tree.filter((p) => p.pid !== rootPid);
  const readers = children.filter(isReader);
  return {
    restSeconds,
    serverBeforeGc,
    server: root?.rssBytes ?? 0,
    heapUsed: heap.heapUsedBytes,
    tree: sum(tree),
    readers: readers.length,
    readerBytes: sum(readers),
    others: children.filter((p) => !isReader(p) && !p.command.includes("next-server")),
  };
}

const describeMemory = (m: Awaited<ReturnType<typeof settledMemory>>) =>
  `${m.restSeconds === undefined ? "readers NOT at rest" : `readers at rest after ${m.restSeconds} s`}: server ${mb(m.serverBeforeGc)}, after a full collection ${mb(m.server)} (live heap ${mb(m.heapUsed)}); ${m.readers} readers ${mb(m.readerBytes)}; tree ${mb(m.tree)}`;

async function main(): Promise<void> {
  mkdirSync(`${OUT}/fuzz-cases`, { recursive: true });
  const seeds = await makeSeeds();
  const server = await startFuzzServer({ port: Number(values.port), logFile: `${OUT}/fuzz-server.log`, readerTimeoutMs: READER_TIMEOUT_MS });
  // The server runs in its own process group: stopping the fuzzer stops it too.
  for (const signal of ["SIGINT", "SIGTERM"] as const) process.once(signal, () => void server.stop().then(() => process.exit(130)));
  const counts: Record<string, Record<string, number>> = {};
  const failures: { format: string; index: number; outcome: Outcome; file: string }[] = [];
  const readerFates = { crashed: 0, timedOut: 0, memoryKilled: 0 };
  const fatesByFormat: Record<string, typeof readerFates> = {};
  const rounds: { round: number; format: string; seconds: number; serverBeforeGc: number; server: number; heapUsed: number; tree: number; readerBytes: number }[] = [];
  const started = Date.now();
  try {
    // Warm-up: every seed once, so the baseline includes loaded parsers and started readers.
    for (const format of FORMATS) {
      const outcome = await send(server.url, server.key, format, seeds[format]);
      console.log(`seed ${format}: ${outcome.status} in ${outcome.ms.toFixed(0)} ms ${outcome.detail}`);
    }
    const baseline = await settledMemory(server);
    console.log(`baseline: ${describeMemory(baseline)}`);

    for (let round = 1; round <= ROUNDS; round++) for (const format of FORMATS) {
      const byStatus: Record<string, number> = (counts[format] ??= {});
      const fates = (fatesByFormat[format] ??= { crashed: 0, timedOut: 0, memoryKilled: 0 });
      const note = (fate: keyof typeof readerFates) => {
        readerFates[fate]++;
        fates[fate]++;
      };
      const formatStarted = Date.now();
      let next = 0;
      const worker = async () => {
        for (let index = next++; index < PER_FORMAT; index = next++) {
          const bytes = mutate(format, seeds[format], caseRandom(SEED, format, index));
          const outcome = await send(server.url, server.key, format, bytes);
          byStatus[outcome.status] = (byStatus[outcome.status] ?? 0) + 1;
          const crashed = /stopped unexpectedly/.test(outcome.detail);
          if (crashed) note("crashed");
          if (/took (?:longer|more) than/.test(outcome.detail)) note("timedOut");
          if (/more memory than allowed/.test(outcome.detail)) note("memoryKilled");
          if (crashed || outcome.status === "hang" || outcome.status === "network-error" || outcome.status >= 500) {
            const file = `${OUT}/fuzz-cases/${format}-${SEED}-${index}.${format}`;
            writeFileSync(file, bytes);
            failures.push({ format, index, outcome, file });
            console.log(`  ${file}: ${outcome.status} in ${(outcome.ms / 1000).toFixed(1)} s ${outcome.detail}`);
          }
          if (server.process.exitCode !== null) throw new Error(`the server exited (${server.process.exitCode}) on ${format} #${index}`);
        }
      };
      await Promise.all(Array.from({ length: CONCURRENCY }, worker));
      const seconds = Math.round((Date.now() - formatStarted) / 1000);
      // Memory after each format tells a leak (grows with every round) from a high-water mark (reached, then flat).
      const settled = await settledMemory(server);
      rounds.push({ round, format, seconds, serverBeforeGc: settled.serverBeforeGc, server: settled.server, heapUsed: settled.heapUsed, tree: settled.tree, readerBytes: settled.readerBytes });
      console.log(`${ROUNDS > 1 ? `round ${round} ` : ""}${format}: ${JSON.stringify(byStatus)}, readers ${JSON.stringify(fates)} in ${seconds} s; ${describeMemory(settled)}`);
      // So far, in case the run is stopped before the end.
      writeFileSync(`${OUT}/fuzz-report.json`, `${JSON.stringify({ complete: false, counts, readerFates: fatesByFormat, memory: { baseline, rounds }, failures }, null, 2)}\n`);
    }

    const after = await settledMemory(server);
    const internalErrors = (readFileSync(`${OUT}/fuzz-server.log`, "utf8").match(/internal error/g) ?? []).length;
    const fiveXX = Object.values(counts).flatMap((c) => Object.entries(c)).filter(([s]) => Number(s) >= 500).reduce((n, [, c]) => n + c, 0);
    const hangs = Object.values(counts).reduce((n, c) => n + (c.hang ?? 0) + (c["network-error"] ?? 0), 0);
    const atRest = baseline.restSeconds !== undefined && after.restSeconds !== undefined;
    const memoryBack = atRest && after.server - baseline.server <= MEMORY_TOLERANCE_BYTES && after.tree - baseline.tree <= MEMORY_TOLERANCE_BYTES;
    // What the server holds (objects kept by a leak) against what the allocator kept of its peak (resident memory).
    const heapBack = after.heapUsed - baseline.heapUsed <= MEMORY_TOLERANCE_BYTES;
    const report = {
      complete: true,
      command: `npm run fuzz -- ${process.argv.slice(2).join(" ")}`.trim(),
      perFormat: PER_FORMAT,
      seed: SEED,
      timeCapMs: TIME_CAP_MS,
      readerTimeoutMs: READER_TIMEOUT_MS,
      seconds: Math.round((Date.now() - started) / 1000),
      counts,
      fiveXX,
      hangs,
      readerFates,
      readerFatesByFormat: fatesByFormat,
      internalErrorsLogged: internalErrors,
      memory: { baseline, rounds, after, toleranceBytes: MEMORY_TOLERANCE_BYTES, backToBaseline: memoryBack, heapBackToBaseline: heapBack },
      leftoverProcesses: after.others.map((p) => p.command),
      failures,
    };
    writeFileSync(`${OUT}/fuzz-report.json`, `${JSON.stringify(report, null, 2)}\n`);
    console.log(`\n${PER_FORMAT} files per format, ${report.seconds} s`);
    for (const [format, c] of Object.entries(counts)) console.log(`  ${format.padEnd(5)} ${Object.entries(c).map(([s, n]) => `${s}×${n}`).join("  ")}`);
    console.log(`5XX: ${fiveXX}   hangs past ${TIME_CAP_MS / 1000} s or dropped connections: ${hangs}   readers crashed: ${readerFates.crashed} (stopped at the deadline: ${readerFates.timedOut}, for memory: ${readerFates.memoryKilled})`);
    console.log(`processes left below the server besides readers: ${after.others.length}; readers: ${after.readers}`);
    console.log(`memory after a full collection: server ${mb(baseline.server)} → ${mb(after.server)}, readers ${mb(baseline.readerBytes)} → ${mb(after.readerBytes)}, tree ${mb(baseline.tree)} → ${mb(after.tree)} (${memoryBack ? "back to baseline" : "NOT back to baseline"}, tolerance ${mb(MEMORY_TOLERANCE_BYTES)}${atRest ? "" : "; readers NOT at rest"})`);
    console.log(`live heap after a full collection: ${mb(baseline.heapUsed)} → ${mb(after.heapUsed)} (${heapBack ? "back to baseline" : "NOT back to baseline"})`);
    process.exitCode = fiveXX === 0 && hangs === 0 && readerFates.crashed === 0 && after.others.length === 0 && memoryBack ? 0 : 1;
  } finally {
    await server.stop();
  }
}

await main();
