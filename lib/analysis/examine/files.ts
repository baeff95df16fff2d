/**
 * From uploaded files to an examination: analyse each file, keep each split's
 * page text for the clause rules, examine the set. Shared by the CLI and the
 * API route so both return exactly the same JSON.
 */
import { AnalysisError } from "../errors";
import { analyzePages } from "../pipeline";
import { ingestDocument, type IngestOptions } from "../ingest";
import type { SplitResult } from "../types";
import { examinePresentation } from "./examine";
import { pageTextsOf, splitTextOf, type PageText } from "./page-text";
import type { ExaminationResult, ExaminedDocument, Tolerances } from "./types";

/** A file as the examination knows it: its name (how it is analysed is the analyzer's business). */
export interface NamedFile {
  name: string;
}

/** A file in memory, as the CLI and the default in-process analyzer read it. */
export interface PresentedFile extends NamedFile {
  bytes: Uint8Array;
}

/** A file analysed: the analyze array and each page's text. */
export interface AnalysedFile {
  result: SplitResult[];
  pageText: PageText[];
}

/**
 * How a file becomes an analysis (with evidence, which the rules read): in
 * process from its bytes by default; the API hands in its analysis service
 * (jobs on workers, reading files it streamed into storage).
 */
export type AnalyzeFile<F extends NamedFile = PresentedFile> = (file: F) => Promise<AnalysedFile>;

export interface ExamineFilesOptions<F extends NamedFile = PresentedFile> {
  tolerances?: Partial<Tolerances>;
  /** How each file is analysed; default `analyzeInProcess` with `ingestOptions`. Files are analysed concurrently. */
  analyze?: AnalyzeFile<F>;
  /** Options for the default in-process reading (page cap, limits). */
  ingestOptions?: IngestOptions;
  /**
   * Documents analysed earlier (stored analyses), examined with the files.
   * Their ids must not collide with `<file name>#<n>`: the caller prefixes them.
   */
  analysed?: ExaminedDocument[];
}

/** Ids are `<file name>#<split number>`; a file name given twice gets a counter so ids stay unique. */
function uniqueName(name: string, seen: Map<string, number>): string {
  const count = (seen.get(name) ?? 0) + 1;
  seen.set(name, count);
  return count === 1 ? name : `${name} (${count})`;
}

/** Reads and analyses a file in this process. Throws AnalysisError for a file it cannot read. */
export async function analyzeInProcess(file: PresentedFile, ingestOptions: IngestOptions = {}): Promise<AnalysedFile> {
  const pages = await ingestDocument(file.bytes, ingestOptions);
  // With evidence: the rules read how surely each value was read (doubt.ts).
  return { result: analyzePages(pages, { fileName: file.name, evidence: true }), pageText: pageTextsOf(pages) };
}

/** An analysed file as examined documents, ids `<id>#<split number>`. */
function examinedDocumentsOf(file: NamedFile, id: string, analysed: AnalysedFile): ExaminedDocument[] {
  return analysed.result.map((result, i) => ({ id: `${id}#${i + 1}`, fileName: file.name, result, ...splitTextOf(analysed.pageText, result.split.pages) }));
}

/** Analyses one file in process into examined documents. Throws AnalysisError for a file it cannot read. */
export async function analyzeForExamination(file: PresentedFile, id: string, ingestOptions: IngestOptions = {}): Promise<ExaminedDocument[]> {
  return examinedDocumentsOf(file, id, await analyzeInProcess(file, ingestOptions));
}

/** Names the file in an engine refusal: in a set of several, "the document has no pages" alone does not say which. */
function namingFile(file: NamedFile, error: unknown): unknown {
  return error instanceof AnalysisError ? new AnalysisError(error.code, `${file.name}: ${error.message}`, error.page) : error;
}

export async function examineFiles(files: PresentedFile[], presentationDate: string, options?: ExamineFilesOptions): Promise<ExaminationResult>;
/** Files not in memory need their analyzer. */
export async function examineFiles<F extends NamedFile>(
  files: F[],
  presentationDate: string,
  options: ExamineFilesOptions<F> & { analyze: AnalyzeFile<F> },
): Promise<ExaminationResult>;
export async function examineFiles<F extends NamedFile>(
  files: F[],
  presentationDate: string,
  options: ExamineFilesOptions<F> = {},
): Promise<ExaminationResult> {
  const analysed = options.analysed ?? [];
  // A file named like a stored analysis's id prefix gets a counter, so document ids stay unique.
  const seen = new Map<string, number>(analysed.map((d) => [d.id.replace(/#\d+$/, ""), 1]));
  // Without an analyzer the files are PresentedFiles (the first overload): read in process from their bytes.
  const analyze = options.analyze ?? ((file: F) => analyzeInProcess(file as unknown as PresentedFile, options.ingestOptions));
  const ids = files.map((file) => uniqueName(file.name, seen));
  const results = await Promise.all(files.map((file) => analyze(file).catch((error: unknown) => Promise.reject(namingFile(file, error)))));
  const documents = files.flatMap((file, i) => examinedDocumentsOf(file, ids[i]!, results[i]!));
  documents.push(...analysed);
  return examinePresentation({ documents, presentationDate, tolerances: options.tolerances });
}
