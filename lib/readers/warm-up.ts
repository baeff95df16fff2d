/**
 * Imported by every reader before it says it is ready (readerPreload), after
 * the engine: reads two committed commercial invoices drawn with embedded
 * TrueType fonts (as Word, Chromium and ERPs make them; warm-up-samples.ts),
 * twice each, so that the documents a reader is then handed run on compiled
 * code rather than in V8's interpreter. Loading the modules alone left that to
 * the first requests: a fresh reader spent 175–200 ms of CPU on its first
 * one-page invoice and 40–50 ms on the next ones, against 15–25 ms once warm,
 * so the first requests after a start, and after each reader's replacement,
 * queued behind slow reads (8 clients from the first request: p99 2.5 s
 * against a p50 of 0.6 s). The samples are files, not drawn here: loading a
 * PDF writer into every reader cost more CPU than the reads themselves.
 */
import { readFileSync } from "node:fs";
import path from "node:path";
import { readInReader } from "./read-in-reader";
import { WARM_UP_DIR, WARM_UP_SAMPLES } from "./warm-up-samples";

/** Reads of each sample. */
const ROUNDS = 2;

try {
  const samples = WARM_UP_SAMPLES.map((sample) => readFileSync(path.join(WARM_UP_DIR, sample.file)));
  for (let round = 0; round < ROUNDS; round++) {
    for (const bytes of samples) await readInReader(new Uint8Array(bytes), { fileName: "warm-up.pdf", evidence: true, maxPages: 2, keepPages: false });
  }
} catch (error) {
  // A reader that could not warm up still reads: its first documents are only slower.
  console.error(`reader warm-up failed: ${error instanceof Error ? error.message.split("\n", 1)[0] : String(error)}`);
}
