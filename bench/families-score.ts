/**
 * The engine on the generator's layout families (test/fixtures/generator/families):
 * the development part, which engine work may be measured on, and the held-out
 * part, which no rule, weight or threshold is tuned on. Digital PDFs as drawn,
 * or the same pages scanned (grey, askew, speckled JPEG pages without text).
 */
import { familySet, type FamilyCase, type Part } from "@/test/fixtures/generator/families/index";
import { scanPdf } from "@/test/fixtures/formats/variants";
import { evaluateFile, type CaseResult } from "./engine";
import { summarize, type Summary } from "./metrics";

export type FamilyFormat = "digital" | "scanned";

export interface FamiliesReport {
  part: Part;
  format: FamilyFormat;
  files: number;
  summary: Summary;
  /** The same scores per layout family ("mixed" for whole presentations). */
  byFamily: Record<string, Summary>;
  cases: CaseResult[];
}

/** Scans cost OCR on shared cores: by default a slice of this many cases, spread over the families and types. */
const SCANNED_SLICE = 12;

/** Every n-th case so that a slice still covers every family and most types. */
export function sliceOf(cases: readonly FamilyCase[], limit: number): FamilyCase[] {
  if (limit >= cases.length) return [...cases];
  const step = cases.length / limit;
  return Array.from({ length: limit }, (_, i) => cases[Math.floor(i * step)]!);
}

/** A scanner's skew that differs from file to file, fixed per case index. */
const skewOf = (index: number) => ((index % 5) - 2) * 0.4;

export async function evaluateFamilies(part: Part, format: FamilyFormat, options: { limit?: number; log?: (line: string) => void } = {}): Promise<FamiliesReport> {
  const all = familySet(part);
  const cases = format === "scanned" ? sliceOf(all, options.limit ?? SCANNED_SLICE) : options.limit ? sliceOf(all, options.limit) : all;
  const results: CaseResult[] = [];
  const familyOf = new Map<string, string>();
  for (const [i, c] of cases.entries()) {
    const fixture = await c.make();
    const pdf = format === "scanned" ? await scanPdf(fixture.pdf, { skewDegrees: skewOf(i), specks: 300 }) : fixture.pdf;
    const result = await evaluateFile(c.name, pdf, fixture.expected);
    results.push(result);
    familyOf.set(c.name, c.family);
    options.log?.(`  ${c.name}: ${result.score.pagesCorrect}/${result.score.pagesTotal} pages${result.error ? `, error: ${result.error}` : ""}`);
  }
  const families = [...new Set(cases.map((c) => c.family))];
  const byFamily = Object.fromEntries(families.map((family) => [family, summarize(results.filter((r) => familyOf.get(r.name) === family).map((r) => r.score))]));
  return { part, format, files: results.length, summary: summarize(results.map((r) => r.score)), byFamily, cases: results };
}
