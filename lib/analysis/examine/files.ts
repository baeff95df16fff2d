/**
 * From uploaded files to an examination: analyse each file, keep each split's
 * page text for the clause rules, examine the set. Shared by the CLI and the
 * API route so both return exactly the same JSON.
 */
import { AnalysisError } from "../errors";
import { analyzePages } from "../index";
import { ingestDocument } from "../ingest";
import type { Page } from "../types";
import { examinePresentation } from "./examine";
import type { ExaminationResult, ExaminedDocument, Tolerances } from "./types";

export interface PresentedFile {
  name: string;
  bytes: Uint8Array;
}

function textOf(pages: Page[]): string {
  return pages.map((p) => p.lines.map((l) => l.text).join("\n")).join("\n");
}

/** Ids are `<file name>#<split number>`; a file name given twice gets a counter so ids stay unique. */
function uniqueName(name: string, seen: Map<string, number>): string {
  const count = (seen.get(name) ?? 0) + 1;
  seen.set(name, count);
  return count === 1 ? name : `${name} (${count})`;
}

/** Analyses one file into examined documents. Throws AnalysisError for a file it cannot read. */
export async function analyzeForExamination(file: PresentedFile, id: string): Promise<ExaminedDocument[]> {
  const pages = await ingestDocument(file.bytes);
  const splits = analyzePages(pages, { fileName: file.name });
  return splits.map((result, i) => {
    const own = pages.filter((p) => result.split.pages.includes(p.number));
    const textSource = own.some((p) => p.source === "ocr") ? ("ocr" as const) : ("text-layer" as const);
    return { id: `${id}#${i + 1}`, fileName: file.name, result, text: textOf(own), textSource };
  });
}

export async function examineFiles(
  files: PresentedFile[],
  presentationDate: string,
  tolerances?: Partial<Tolerances>,
): Promise<ExaminationResult> {
  const seen = new Map<string, number>();
  const documents: ExaminedDocument[] = [];
  for (const file of files) {
    try {
      documents.push(...(await analyzeForExamination(file, uniqueName(file.name, seen))));
    } catch (error) {
      // Name the file: in a set of several, "the document has no pages" alone does not say which.
      if (error instanceof AnalysisError) throw new AnalysisError(error.code, `${file.name}: ${error.message}`, error.page);
      throw error;
    }
  }
  return examinePresentation({ documents, presentationDate, tolerances });
}
