/**
 * Regenerates the committed golden fixtures: one PDF and its expected analyze
 * array per case of the golden set. Run: npx tsx scripts/fixtures.ts
 */
import { mkdirSync, readdirSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { goldenSet } from "../test/fixtures/generator/index";
import { GOLDEN_DIR, expectedJson } from "../test/fixtures/golden-files";

mkdirSync(GOLDEN_DIR, { recursive: true });
const cases = goldenSet();
const names = new Set(cases.map((c) => c.name));
for (const file of readdirSync(GOLDEN_DIR)) {
  if (!names.has(file.replace(/\.(pdf|json)$/, ""))) rmSync(join(GOLDEN_DIR, file));
}
let bytes = 0;
let pages = 0;
for (const c of cases) {
  const fixture = await c.make();
  writeFileSync(join(GOLDEN_DIR, `${c.name}.pdf`), fixture.pdf);
  writeFileSync(join(GOLDEN_DIR, `${c.name}.json`), expectedJson(fixture.expected));
  bytes += fixture.pdf.length;
  pages += fixture.expected.reduce((sum, s) => sum + s.split.pages.length, 0);
}
console.log(`${cases.length} golden cases, ${pages} pages, ${(bytes / 1024).toFixed(0)} KiB of PDF in ${GOLDEN_DIR}`);
