import { examinePresentation, ExaminationError, pageTextsOf, splitTextOf, type ExaminationResult, type ExaminedDocument, type Page } from "@/lib/analysis";
import { rowTolerances } from "./tolerance-notes";
import { decideFindings } from "./apply-review";
import { documentIdOf, type DecisionView, type SetExamination, type SetFileView } from "./types";

/** Rows name documents by id ("Commercial Invoice (sfl_…#2)"); people read them by page ("Commercial Invoice (p. 3)"). */
function readableIds(result: ExaminationResult, documents: ExaminedDocument[]): ExaminationResult {
  const labels = documents.map((d) => [d.id, pagesLabel(d.result.split.pages)] as const);
  const rewrite = (text: string | undefined) => labels.reduce((t, [id, label]) => t?.replaceAll(id, label), text);
  return { ...result, matrix: { ...result.matrix, rows: result.matrix.rows.map((r) => ({ ...r, reason: rewrite(r.reason) })) } };
}

function pagesLabel(pages: number[]): string {
  return pages.length === 1 ? `p. ${pages[0]}` : `pp. ${pages[0]}–${pages.at(-1)}`;
}

/**
 * The set's splits in force (corrections included) as one presentation,
 * examined at `presentationDate`. Each document carries its pages' text and
 * whether OCR read it, built exactly as for the API's compare (pageTextsOf,
 * splitTextOf), so the clause rules (clean B/L, transhipment, credit number)
 * judge a scanned set the same way in both. Findings carry their key and
 * the checker's decision in force.
 */
export function examineSet(
  files: SetFileView[],
  pagesByFile: Map<string, Page[]>,
  presentationDate: string,
  decisions: DecisionView[] = [],
): { examination: SetExamination | null; error: string | null } {
  const documents: ExaminedDocument[] = files
    .filter((f) => f.status === "done")
    .flatMap((file) => {
      const texts = pageTextsOf(pagesByFile.get(file.id) ?? []);
      return file.splits.map((result, i) => ({
        id: documentIdOf(file.id, i),
        fileName: file.fileName,
        result,
        ...splitTextOf(texts, result.split.pages),
      }));
    });
  if (documents.length === 0) return { examination: null, error: null };
  try {
    const result = readableIds(examinePresentation({ documents, presentationDate }), documents);
    return { examination: { ...result, findings: decideFindings(result.findings, decisions), presentationDate, tolerances: rowTolerances() }, error: null };
  } catch (error) {
    if (error instanceof ExaminationError) return { examination: null, error: error.message };
    throw error;
  }
}
