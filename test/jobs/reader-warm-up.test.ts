import { readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { readInReader } from "@/lib/readers/read-in-reader";
import { WARM_UP_DIR, WARM_UP_SAMPLES } from "@/lib/readers/warm-up-samples";

/**
 * The documents every reader reads before it says it is ready must take the
 * path real files take: parsed from a text layer with embedded fonts, found
 * to be one commercial invoice, its fields extracted. A sample that no longer
 * reads so (missing, corrupt, or turned into another type by an engine change)
 * would leave the readers cold again without a word.
 */
describe("reader warm-up samples", () => {
  it.each(WARM_UP_SAMPLES)("$file reads as a commercial invoice with its fields", async ({ file }) => {
    const bytes = new Uint8Array(readFileSync(path.join(WARM_UP_DIR, file)));
    const read = await readInReader(bytes, { fileName: file, evidence: true, maxPages: 2, keepPages: false });
    expect(read.result).toHaveLength(1);
    expect(read.result[0]!.split.document_type).toBe("Commercial Invoice");
    expect(Object.keys(read.result[0]!.extracted ?? {}).length).toBeGreaterThan(5);
    expect(read.pageText.every((page) => !page.ocr && page.text.length > 200)).toBe(true);
  });
});
