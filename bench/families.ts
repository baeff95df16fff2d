/**
 * The engine on one part of the layout families:
 *
 *   npx tsx bench/families.ts --part development|holdout [--format digital|scanned] [--per-key] [--limit N] [--verbose]
 *
 * Prints page-type accuracy, split F1, field F1 with precision and recall, the
 * scores per family and per type, the weakest keys (all with --per-key) and the
 * page-type confusion matrix. Engine work is measured on the development part;
 * the held-out part is for the bench's headline only, never for tuning.
 */
import { evaluateFamilies, type FamiliesReport, type FamilyFormat } from "./families-score";
import { formatConfusion, formatKeys, formatSummary, formatTable } from "./report";
import { f1, precision, recall, totalCounts } from "./metrics";

/** Keys listed without --per-key: the weakest few. */
const WEAKEST_KEYS = 20;

function option(name: string): string | undefined {
  const i = process.argv.indexOf(name);
  return i >= 0 ? process.argv[i + 1] : undefined;
}

/** Headline, families, types, keys and confusion of one report. */
export function formatFamilies(report: FamiliesReport, allKeys: boolean): string {
  const fields = totalCounts(report.summary.fieldsByType);
  const familyRows = Object.entries(report.byFamily).map(([family, s]) => [family, `${(s.pageAccuracy * 100).toFixed(1)}%`, String(s.pagesTotal), s.splitF1.toFixed(3), s.fieldF1.toFixed(3)]);
  return [
    `Layout families, ${report.part} part, ${report.format} (${report.files} files)`,
    `  field precision ${precision(fields).toFixed(3)}   recall ${recall(fields).toFixed(3)}   F1 ${f1(fields).toFixed(3)}`,
    "",
    formatTable(["family", "page type", "pages", "split F1", "field F1"], familyRows),
    "",
    formatSummary("By type", report.summary),
    "",
    allKeys ? "Fields per key (weakest first)" : `Weakest ${WEAKEST_KEYS} keys (all with --per-key)`,
    formatKeys(report.summary, allKeys ? undefined : WEAKEST_KEYS),
    "",
    "Page types: expected (rows) against predicted (columns)",
    formatConfusion(report.summary),
  ].join("\n");
}

const isMain = process.argv[1]?.endsWith("families.ts") ?? false;
if (isMain) {
  const part = option("--part");
  const format = (option("--format") ?? "digital") as FamilyFormat;
  if (part !== "development" && part !== "holdout") throw new Error("--part development|holdout is required");
  if (format !== "digital" && format !== "scanned") throw new Error("--format is digital or scanned");
  const limit = option("--limit");
  const report = await evaluateFamilies(part, format, { ...(limit ? { limit: Number(limit) } : {}), ...(process.argv.includes("--verbose") ? { log: (line: string) => console.log(line) } : {}) });
  console.log(formatFamilies(report, process.argv.includes("--per-key")));
}
