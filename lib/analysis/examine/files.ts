/**
 * From uploaded files to an examination: analyse each file, keep each split's
 * page text for the clause rules, examine the set. Shared by the CLI and the
 * API route so both return exactly the same JSON.
 */
import { AnalysisError } from "../errors";
import { analyzePages } from "../index";
import { ingestDocument, type IngestOptions } from "../ingest";
import type { Page } from "../types";
import { examinePresentation } from "./examine";
import { pageTextsOf, splitTextOf } from "./page-text";
import type { ExaminationResult, ExaminedDocument, Tolerances } from "./types";

export interface PresentedFile {
  name: string;
  bytes: Uint8Array;
}

/** Reads a file's bytes into pages: in process by default, or in an isolated child process (the API). */
export type Ingest = (bytes: Uint8Array, options?: IngestOptions) => Promise<Page[]>;

export interface ExamineFilesOptions {
  tolerances?: Partial<Tolerances>;
  /** How bytes become pages; default the in-process `ingestDocument`. */
  ingest?: Ingest;
  /** Options handed to `ingest` for every file (page cap, limits). */
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

/** Analyses one file into examined documents. Throws AnalysisError for a file it cannot read. */
export async function analyzeForExamination(
  file: PresentedFile,
  id: string,
  ingest: Ingest = ingestDocument,
  ingestOptions: IngestOptions = {},
): Promise<ExaminedDocument[]> {
  const pages = await ingest(file.bytes, ingestOptions);
  // With evidence: the rules read how surely each value was read (doubt.ts).
  const splits = analyzePages(pages, { fileName: file.name, evidence: true });
  const texts = pageTextsOf(pages);
  return splits.map((result, i) => ({ id: `${id}#${i + 1}`, fileName: file.name, result, ...splitTextOf(texts, result.split.pages) }));
}

export async function examineFiles(
  files: PresentedFile[],
  presentationDate: string,
  options: ExamineFilesOptions = {},
): Promise<ExaminationResult> {
  const analysed = options.analysed ?? [];
  // A file named like a stored analysis's id prefix gets a counter, so document ids stay unique.
  const seen = new Map<string, number>(analysed.map((d) => [d.id.replace(/#\d+$/, ""), 1]));
  const documents: ExaminedDocument[] = [];
  for (const file of files) {
    try {
      documents.push(...(await analyzeForExamination(file, uniqueName(file.name, seen), options.ingest, options.ingestOptions)));
    } catch (error) {
      // Name the file: in a set of several, "the document has no pages" alone does not say which.
      if (error instanceof AnalysisError) throw new AnalysisError(error.code, `${file.name}: ${error.message}`, error.page);
      throw error;
    }
  }
  documents.push(...analysed);
  return examinePresentation({ documents, presentationDate, tolerances: options.tolerances });
}
