/**
 * `npm run fuzz:replay`: the cases of `npm run fuzz` rebuilt from their seed
 * and index and read in reader processes (the pool the server uses), without
 * a server or a build, to find and repeat the ones that crash a reader, hit the
 * deadline or are slow. A case that did goes to test-results/fuzz-cases/.
 *
 *   npm run fuzz:replay -- --format png [--from 0] [--to 200] [--seed 1] [--timeout-ms 30000] [--slow-ms 5000]
 *   npm run fuzz:replay -- test-results/fuzz-cases/eml-1-850.eml ...   (saved cases, read as they are)
 */
import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { parseArgs } from "node:util";
import { AnalysisError } from "@/lib/analysis";
import { readIsolated, readerPreload } from "@/lib/readers/ingest-isolated";
import { ProcessPool } from "@/lib/readers/pool";
import { caseRandom, mutate } from "./fuzz-mutators";
import { makeSeeds, type FuzzFormat } from "./fuzz-seeds";

const { values, positionals } = parseArgs({
  allowPositionals: true,
  options: {
    format: { type: "string", default: "png" },
    from: { type: "string", default: "0" },
    to: { type: "string", default: "200" },
    seed: { type: "string", default: "1" },
    "timeout-ms": { type: "string", default: "30000" },
    "slow-ms": { type: "string", default: "5000" },
  },
});
const format = values.format as FuzzFormat;
const SEED = Number(values.seed);
const SLOW_MS = Number(values["slow-ms"]);
const OUT = "test-results/fuzz-cases";

const seeds = await makeSeeds();
// Stopped at the time cap whether in processor time or on the clock, as the fuzz's server does.
const pool = new ProcessPool({ size: 2, cpuBudgetMs: Number(values["timeout-ms"]), wallTimeoutMs: Number(values["timeout-ms"]), preload: readerPreload() });
pool.warm();
await pool.ready();
mkdirSync(OUT, { recursive: true });
const tally: Record<string, number> = {};
const noted: string[] = [];
let next = Number(values.from);
const last = Number(values.to);
const files = positionals;
const total = files.length > 0 ? files.length : last;
if (files.length > 0) next = 0;
const worker = async () => {
  for (let index = next++; index < total; index = next++) {
    const bytes = files.length > 0 ? new Uint8Array(readFileSync(files[index]!)) : mutate(format, seeds[format], caseRandom(SEED, format, index));
    const started = performance.now();
    let outcome: string;
    try {
      const read = await readIsolated(bytes, { fileName: `fuzz.${format}`, evidence: false, maxPages: 500, keepPages: false, bounded: false }, pool);
      outcome = `ok ${read.pageCount} pages`;
    } catch (error) {
      outcome = error instanceof AnalysisError ? `${error.code}: ${error.message}` : `error: ${String(error)}`;
    }
    const ms = performance.now() - started;
    if (files.length > 0) console.log(`${files[index]}: ${outcome.slice(0, 120)} in ${ms.toFixed(0)} ms`);
    const kind = /stopped unexpectedly/.test(outcome) ? "crashed" : /took (?:longer|more) than/.test(outcome) ? "deadline" : /more memory/.test(outcome) ? "memory" : ms > SLOW_MS ? "slow" : outcome.split(/[: ]/)[0]!;
    tally[kind] = (tally[kind] ?? 0) + 1;
    if (["crashed", "deadline", "memory", "slow", "error"].includes(kind)) {
      const file = files[index] ?? `${OUT}/${format}-${SEED}-${index}.${format}`;
      if (files.length === 0) writeFileSync(file, bytes);
      noted.push(`${kind.padEnd(8)} ${file} ${bytes.length} B ${ms.toFixed(0)} ms ${outcome.slice(0, 120)}`);
      console.log(noted.at(-1));
    }
  }
};
await Promise.all([worker(), worker()]);
pool.close();
console.log(`${files.length > 0 ? `${files.length} files` : `${format} ${values.from}..${last}`}: ${JSON.stringify(tally)}`);
