/** Plain-text tables of benchmark results. */
import { f1, NO_LABEL, precision, recall, type Counts, type Summary } from "./metrics";
import type { CorpusReport } from "./corpus";
import type { SpeedReport } from "./engine";

const pct = (x: number) => `${(x * 100).toFixed(1)}%`;
const num = (x: number) => x.toFixed(3);

/** A table with left-aligned first column and right-aligned others. */
export function formatTable(header: string[], rows: string[][]): string {
  const widths = header.map((h, i) => Math.max(h.length, ...rows.map((r) => (r[i] ?? "").length)));
  const line = (cells: string[]) => cells.map((c, i) => (i === 0 ? c.padEnd(widths[i]!) : c.padStart(widths[i]!))).join("  ");
  return [line(header), widths.map((w) => "-".repeat(w)).join("  "), ...rows.map(line)].join("\n");
}

const counts = (c: Counts | undefined) => (c ? `${c.tp}/${c.fp}/${c.fn}` : "-");

/** Overall accuracy and a per-type table of split and field scores. */
export function formatSummary(title: string, summary: Summary): string {
  const labels = [...new Set([...Object.keys(summary.splitsByType), ...Object.keys(summary.fieldsByType)])].sort();
  const rows = labels.map((label) => {
    const s = summary.splitsByType[label];
    const f = summary.fieldsByType[label];
    return [label, counts(s), s ? num(f1(s)) : "-", counts(f), f && f.tp + f.fp + f.fn > 0 ? num(f1(f)) : "-"];
  });
  return [
    `${title}`,
    `  page-type accuracy ${pct(summary.pageAccuracy)} of ${summary.pagesTotal} pages   split F1 ${num(summary.splitF1)}   field F1 ${num(summary.fieldF1)}`,
    "",
    formatTable(["type", "splits tp/fp/fn", "split F1", "fields tp/fp/fn", "field F1"], rows),
  ].join("\n");
}

export function formatSpeed(speed: SpeedReport): string {
  return [
    `Speed (${speed.files} files, ${speed.pages} pages, ${speed.rounds} timed rounds after a warm-up, interleaved)`,
    `  raw pdfjs text extraction  ${speed.rawTextMs.toFixed(0)} ms per round`,
    `  analyzeDocument            ${speed.analysisMs.toFixed(0)} ms per round`,
    `  ratio analysis / raw text  ${speed.ratio.toFixed(2)}x wall, ${speed.cpuRatio.toFixed(2)}x CPU time (${speed.analysisCpuMs.toFixed(0)} / ${speed.rawTextCpuMs.toFixed(0)} ms per round; CPU time is what a loaded machine does not blur)`,
    `  pages per second           ${speed.pagesPerSecond.toFixed(0)}`,
  ].join("\n");
}

export function formatCorpus(report: CorpusReport): string {
  const rows = report.files.map((f) => {
    if (!f.score) return [f.file, String(f.pages), "-", "-", String(f.labelledFields), "-", "skipped"];
    const splits = Object.values(f.score.splits).reduce((a, c) => ({ tp: a.tp + c.tp, fp: a.fp + c.fp, fn: a.fn + c.fn }), { tp: 0, fp: 0, fn: 0 });
    const fields = Object.values(f.score.fields).reduce((a, c) => ({ tp: a.tp + c.tp, fp: a.fp + c.fp, fn: a.fn + c.fn }), { tp: 0, fp: 0, fn: 0 });
    return [f.file, String(f.pages), pct(f.score.pagesCorrect / Math.max(1, f.score.pagesTotal)), num(f1(splits)), String(f.labelledFields), f.labelledFields ? num(f1(fields)) : "-", `${(f.ms ?? 0).toFixed(0)} ms`];
  });
  const scored = report.files.filter((f) => f.score).length;
  const skipped = report.files.filter((f) => !f.score).map((f) => `  ${f.file}: ${f.reason}`);
  return [
    formatTable(["file", "pages", "page acc", "split F1", "labelled", "field F1", "status"], rows),
    "",
    "Skipped:",
    ...skipped,
    "",
    formatSummary(`Corpus overall (${scored} of ${report.files.length} files scored; field F1 over labelled keys only)`, report.summary),
  ].join("\n");
}

/** Field precision and recall per "Type / key", weakest first; `limit` rows, or all. */
export function formatKeys(summary: Summary, limit?: number): string {
  const rows = Object.entries(summary.fieldsByKey)
    .sort(([a, x], [b, y]) => f1(x) - f1(y) || a.localeCompare(b))
    .slice(0, limit ?? Infinity)
    .map(([key, c]) => [key, counts(c), num(precision(c)), num(recall(c)), num(f1(c))]);
  return formatTable(["type / key", "tp/fp/fn", "P", "R", "F1"], rows);
}

/** Short column names of the type labels in a confusion matrix. */
function shortLabel(label: string): string {
  if (label === NO_LABEL) return "none";
  return label.split(/\s+/).filter((word) => word !== "of").map((word) => word[0]).join("");
}

/** Pages by expected type (rows) and predicted type (columns). */
export function formatConfusion(summary: Summary): string {
  const expected = Object.keys(summary.confusion).sort();
  const predicted = [...new Set(Object.values(summary.confusion).flatMap((row) => Object.keys(row)))].sort();
  const rows = expected.map((label) => [label, ...predicted.map((given) => String(summary.confusion[label]?.[given] ?? "."))]);
  return formatTable(["expected \\ predicted", ...predicted.map(shortLabel)], rows);
}
