/**
 * Writes the documents every reader reads before it says it is ready
 * (lib/readers/warm-up.ts): two one-page-and-two-page commercial invoices of
 * the fixture generator, in layouts other than the endpoint benchmark's, drawn
 * with embedded TrueType fonts as most files users send are. Committed, so a
 * reader loads no PDF writer to make them. Run: npx tsx scripts/warm-up-samples.ts
 */
import { writeFileSync } from "node:fs";
import path from "node:path";
import { generateDocument } from "../test/fixtures/generator/index";
import { WARM_UP_DIR, WARM_UP_SAMPLES } from "../lib/readers/warm-up-samples";

for (const sample of WARM_UP_SAMPLES) {
  const { pdf, name } = await generateDocument({ type: "commercial_invoice", seed: sample.seed });
  writeFileSync(path.join(WARM_UP_DIR, sample.file), pdf);
  console.log(`${sample.file}: ${name}, ${pdf.length} bytes`);
}
