/**
 * The engine on ../shared/corpus (real and public presentations with
 * labels.json), when that folder exists. Only the benchmark reads it.
 */
import { existsSync, readFileSync } from "node:fs";
import { join, resolve } from "node:path";
import { performance } from "node:perf_hooks";
import { analyzeDocument, AnalysisError, DOCUMENT_TYPES, labelOf, validateExtracted, type DocumentTypeId, type SplitResult } from "@/lib/analysis";
import { scoreCase, summarize, type CaseScore, type Summary } from "./metrics";

export const CORPUS_DIR = resolve(process.cwd(), "../shared/corpus");

export interface LabelEntry {
  file: string;
  format: string;
  pages?: number;
  text_layer?: boolean;
  scan?: boolean;
  pages_types: { pages: number[]; document_type: string }[];
  fields?: Record<string, unknown>;
}

export interface CorpusFileResult {
  file: string;
  pages: number;
  status: "scored" | "skipped";
  reason?: string;
  labelledFields: number;
  score?: CaseScore;
  ms?: number;
}

export interface CorpusReport {
  files: CorpusFileResult[];
  summary: Summary;
}

/** Label keys that name a schema key differently, per type where it matters. */
const KEY_ALIASES: Record<string, Partial<Record<DocumentTypeId | "default", string>>> = {
  issue_date: { commercial_invoice: "invoice_date", default: "date_of_issue" },
  date: { commercial_invoice: "invoice_date", default: "date_of_issue" },
  amount: { commercial_invoice: "total_amount", contract: "total_amount", default: "amount" },
  gross_weight: { default: "gross_weight_kg" },
  net_weight: { default: "net_weight_kg" },
  goods_description: { default: "description_of_goods" },
};
/** Plain label strings trusted as already normalised: references and codes printed as they are. */
const PLAIN_KEYS = new Set([
  "lc_number", "bl_number", "booking_number", "invoice_number", "certificate_number", "packing_list_number",
  "currency", "vessel", "voyage", "form_of_credit", "applicable_rules", "confirmation_instructions",
]);
const KG_PER_UNIT: Record<string, number> = { KG: 1, KGS: 1, MT: 1000, TONS: 1000, LBS: 0.45359237 };

/** The label's normalised form of one value (`iso`, `value`, plain reference), or undefined. */
function normalisedValue(key: string, value: unknown): unknown {
  if (typeof value === "string") return PLAIN_KEYS.has(key) && !value.includes("\n") ? value : undefined;
  if (typeof value !== "object" || value === null || Array.isArray(value)) return undefined;
  const record = value as Record<string, unknown>;
  if (typeof record.iso === "string") return record.iso;
  if (typeof record.value !== "number") return undefined;
  const unit = typeof record.unit === "string" ? record.unit.toUpperCase().replace(/\.$/, "") : undefined;
  return key.endsWith("_kg") && unit ? record.value * (KG_PER_UNIT[unit] ?? Number.NaN) : record.value;
}

/** labels.json fields mapped onto the schema keys of `type`, keeping only values that validate. */
export function mapLabelFields(type: DocumentTypeId, fields: Record<string, unknown>): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  const schemaKeys = DOCUMENT_TYPES[type].fields as Record<string, unknown>;
  for (const [labelKey, raw] of Object.entries(fields)) {
    const aliases = KEY_ALIASES[labelKey];
    const key = aliases ? (aliases[type] ?? aliases.default!) : labelKey;
    if (!(key in schemaKeys)) continue;
    const value = normalisedValue(key, raw);
    if (value === undefined || validateExtracted(type, { [key]: value }).length) continue;
    out[key] = value;
  }
  return out;
}

function isTypeId(id: string): id is DocumentTypeId {
  return id in DOCUMENT_TYPES;
}

/** The expected analyze array of a labelled file; its fields go to the one split of the file's own type. */
export function expectedOf(entry: LabelEntry): SplitResult[] {
  const fileType = entry.file.split("__")[0] ?? "";
  const ofFileType = entry.pages_types.filter((p) => p.document_type === fileType);
  return entry.pages_types.filter((p) => isTypeId(p.document_type)).map((p) => {
    const type = p.document_type as DocumentTypeId;
    const carriesFields = entry.fields && ofFileType.length === 1 && ofFileType[0] === p;
    return { split: { document_type: labelOf(type), pages: p.pages }, extracted: carriesFields ? mapLabelFields(type, entry.fields!) : {} };
  });
}

/** Keeps only the labelled keys of each predicted split: the corpus labels a few keys, not all. */
function restrictToLabelled(expected: SplitResult[], predicted: SplitResult[]): SplitResult[] {
  const keys = new Map<string, Set<string>>();
  for (const s of expected) for (const k of Object.keys(s.extracted)) (keys.get(s.split.document_type) ?? keys.set(s.split.document_type, new Set()).get(s.split.document_type)!).add(k);
  return predicted.map((s) => {
    const allowed = keys.get(s.split.document_type) ?? new Set<string>();
    return { split: s.split, extracted: Object.fromEntries(Object.entries(s.extracted).filter(([k]) => allowed.has(k))) };
  });
}

function skipReason(entry: LabelEntry, ocr: boolean): string | undefined {
  const needsOcr = entry.text_layer === false || entry.scan === true || ["png", "jpg", "jpeg", "tiff", "webp"].includes(entry.format);
  if (needsOcr && !ocr) return `${entry.format.toUpperCase()} without a text layer: OCR left out by default (npm run bench -- --ocr)`;
  return undefined;
}

/** Scores every labelled corpus file the engine reads; lists the others with the reason. */
export async function evaluateCorpus(dir: string, options: { ocr: boolean }): Promise<CorpusReport> {
  const entries = JSON.parse(readFileSync(join(dir, "labels.json"), "utf8")) as LabelEntry[];
  const files: CorpusFileResult[] = [];
  for (const entry of entries) {
    const expected = expectedOf(entry);
    const pages = expected.reduce((n, s) => n + s.split.pages.length, 0);
    const labelledFields = expected.reduce((n, s) => n + Object.keys(s.extracted).length, 0);
    const base = { file: entry.file, pages, labelledFields };
    const path = join(dir, "files", entry.file);
    const reason = !existsSync(path) ? "file missing" : skipReason(entry, options.ocr);
    if (reason) {
      files.push({ ...base, status: "skipped", reason });
      continue;
    }
    const started = performance.now();
    try {
      const predicted = await analyzeDocument(new Uint8Array(readFileSync(path)), { fileName: entry.file });
      files.push({ ...base, status: "scored", score: scoreCase(expected, restrictToLabelled(expected, predicted)), ms: performance.now() - started });
    } catch (error) {
      if (!(error instanceof AnalysisError)) throw error;
      files.push({ ...base, status: "skipped", reason: `${error.code}: ${error.message}` });
    }
  }
  const scored = files.filter((f) => f.score).map((f) => f.score!);
  return { files, summary: summarize(scored) };
}

export function corpusExists(dir = CORPUS_DIR): boolean {
  return existsSync(join(dir, "labels.json"));
}

/** `npx tsx bench/corpus.ts [--dir DIR] [--ocr] [--per-key]`: the corpus alone (DIR defaults to ../shared/corpus). */
const isMain = process.argv[1]?.endsWith("corpus.ts") ?? false;
if (isMain) {
  const { formatConfusion, formatCorpus, formatKeys } = await import("./report");
  const at = process.argv.indexOf("--dir");
  const dir = at >= 0 && process.argv[at + 1] ? resolve(process.argv[at + 1]!) : CORPUS_DIR;
  if (!corpusExists(dir)) throw new Error(`no labels.json in ${dir}`);
  const report = await evaluateCorpus(dir, { ocr: process.argv.includes("--ocr") });
  console.log(formatCorpus(report));
  console.log(`\nFields per key (weakest first)\n${formatKeys(report.summary, process.argv.includes("--per-key") ? undefined : 25)}`);
  console.log(`\nPage types: expected (rows) against predicted (columns)\n${formatConfusion(report.summary)}`);
}
