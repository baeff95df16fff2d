/**
 * Golden tests: the engine on the committed generated fixtures. Each case must
 * split exactly as expected; accuracy over the whole set must meet issue 3's targets.
 */
import { beforeAll, describe, expect, it } from "vitest";
import { analyzeDocument, type SplitResult } from "@/lib/analysis";
import { scoreCase, summarize, type CaseScore } from "@/bench/metrics";
import { goldenSet } from "@/test/fixtures/generator/index";
import { readGolden } from "@/test/fixtures/golden-files";

/** Issue 3's targets on digital PDFs. */
const TARGET_PAGE_ACCURACY = 0.98;
const TARGET_SPLIT_F1 = 0.97;
const TARGET_FIELD_F1 = 0.95;

const names = goldenSet().map((c) => c.name);
const results = new Map<string, { expected: SplitResult[]; predicted: SplitResult[]; score: CaseScore }>();

const outline = (splits: readonly SplitResult[]) => splits.map((s) => `${s.split.document_type} ${s.split.pages.join(",")}`);

beforeAll(async () => {
  for (const name of names) {
    const golden = readGolden(name);
    const predicted = await analyzeDocument(golden.pdf, { fileName: `${name}.pdf` });
    results.set(name, { expected: golden.expected, predicted, score: scoreCase(golden.expected, predicted) });
  }
});

describe("golden fixtures: splits", () => {
  it.each(names)("%s splits into the expected documents", (name) => {
    const result = results.get(name)!;
    expect(outline(result.predicted)).toEqual(outline(result.expected));
  });
});

describe("golden fixtures: accuracy over the set", () => {
  it(`classifies at least ${TARGET_PAGE_ACCURACY * 100}% of pages right`, () => {
    expect(summarize([...results.values()].map((r) => r.score)).pageAccuracy).toBeGreaterThanOrEqual(TARGET_PAGE_ACCURACY);
  });

  it(`finds documents with split F1 of at least ${TARGET_SPLIT_F1}`, () => {
    expect(summarize([...results.values()].map((r) => r.score)).splitF1).toBeGreaterThanOrEqual(TARGET_SPLIT_F1);
  });

  it(`extracts fields with F1 of at least ${TARGET_FIELD_F1}`, () => {
    expect(summarize([...results.values()].map((r) => r.score)).fieldF1).toBeGreaterThanOrEqual(TARGET_FIELD_F1);
  });
});
