import { describePages, typeOfClass } from "./classify";
import { AnalysisError } from "./errors";
import { extractFields } from "./extract";
import { labelOf } from "./schema";
import { splitPages } from "./split";
import { applyLayoutHints } from "./taught/apply";
import type { AnalyzeOptions, Page, SplitResult } from "./types";

/** Classifies, splits and extracts pages already read from any format. Pages must be numbered 1..n in order. */
export function analyzePages(pages: Page[], options: AnalyzeOptions = {}): SplitResult[] {
  if (pages.length === 0) throw new AnalysisError("empty", "The document has no pages.");
  if (!pages.some((p) => p.lines.some((l) => l.text.trim().length > 0))) {
    throw new AnalysisError(
      "empty",
      "No text was found on any page: the document is blank or scanned without a text layer.",
    );
  }
  const segments = splitPages(describePages(pages));
  return segments.map((segment) => {
    const type = typeOfClass(segment.cls);
    const docPages = segment.pages.map((i) => pages[i]!);
    const { values, evidence } = applyLayoutHints(type, docPages, extractFields(type, docPages), options.layoutHints ?? []);
    const result: SplitResult = {
      split: { document_type: labelOf(type), pages: docPages.map((p) => p.number) },
      extracted: values,
    };
    if (options.evidence) result.evidence = evidence;
    return result;
  });
}
