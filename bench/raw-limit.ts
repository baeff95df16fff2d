/**
 * The raw limit: how many documents a second raw pdfjs text extraction reads
 * of one file with every core at work, measured rather than extrapolated. One
 * process per core (as the readers are processes) reads the file until its
 * code is warm, then all read it at once for a fixed spell.
 *
 * Worked out from one process's reads instead (cores ÷ their median), it is
 * wrong either way: pdfjs's first 25 reads of the embedded-font invoice take
 * 2-3× its warm median (the benchmark's figure until November 2026, far too
 * low), and a warm median leaves out the collector and compiler threads that
 * run beside it. Measured, on 2 cores here: 214-268 documents/s on Node 20 and
 * 308-384 on Node 24, where the old figure said 159-163 and 194-238.
 */
import { spawn } from "node:child_process";
import { mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import { availableParallelism, tmpdir } from "node:os";
import path from "node:path";
import { createInterface } from "node:readline";
import { fileURLToPath, pathToFileURL } from "node:url";
import { extractRawText } from "./engine";

/**
 * Reads of the file before the timed spell. pdfjs's median on the embedded-font invoice came
 * down to its steady figure by 600 reads on Node 20 (5.6 ms at 300-400, 5.0 after) and by 200 on Node 24.
 */
export const RAW_WARM_READS = 600;
/** The timed spell, all processes reading at once. */
const RAW_SPELL_MS = 5_000;
const SELF = fileURLToPath(import.meta.url);

/** Documents a second raw pdfjs reads of `pdf`, one warm process per core reading at once. */
export async function measureRawLimit(pdf: Uint8Array, processes = availableParallelism()): Promise<number> {
  const dir = await mkdtemp(path.join(tmpdir(), "raw-limit-"));
  try {
    const file = path.join(dir, "input.pdf");
    await writeFile(file, pdf);
    const readers = Array.from({ length: processes }, () => startReader(file));
    try {
      await Promise.all(readers.map((reader) => reader.line()));
      for (const reader of readers) reader.go();
      const rates = await Promise.all(readers.map(async (reader) => Number(await reader.line())));
      return rates.reduce((sum, rate) => sum + rate, 0);
    } finally {
      for (const reader of readers) reader.kill();
    }
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

/** A reading process: says "ready" once warm, reads for the spell on "go", then prints its documents a second. */
function startReader(file: string) {
  const child = spawn(process.execPath, ["--import", "tsx", SELF, file], { stdio: ["pipe", "pipe", "inherit"] });
  const lines = createInterface({ input: child.stdout })[Symbol.asyncIterator]();
  return {
    line: async () => {
      const next = await lines.next();
      if (next.done) throw new Error(`raw pdfjs reader ended without an answer (exit ${child.exitCode})`);
      return next.value;
    },
    go: () => child.stdin.write("go\n"),
    kill: () => child.kill(),
  };
}

async function readForSpell(file: string): Promise<void> {
  const pdf = new Uint8Array(await readFile(file));
  for (let i = 0; i < RAW_WARM_READS; i++) await extractRawText(pdf);
  process.stdout.write("ready\n");
  await new Promise((resolve) => process.stdin.once("data", resolve));
  let reads = 0;
  const start = performance.now();
  while (performance.now() - start < RAW_SPELL_MS) {
    await extractRawText(pdf);
    reads++;
  }
  process.stdout.write(`${reads / ((performance.now() - start) / 1000)}\n`);
  process.exit(0);
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? "").href) await readForSpell(process.argv[2]!);
