import { AnalysisError, type AnalysisErrorCode, type SplitResult } from "@/lib/analysis";
import { AnalysisJobError } from "./errors";
import type { JobOutcome } from "./job-events";

const ANALYSIS_ERROR_CODES: ReadonlySet<string> = new Set<AnalysisErrorCode>([
  "unsupported_format",
  "unreadable",
  "encrypted",
  "empty",
  "limit_exceeded",
  "timeout",
]);

/**
 * The analyze array of a finished job, or the error it ended with: the
 * engine's refusal as the AnalysisError it was (415/422 at the API), anything
 * else as an AnalysisJobError (500).
 */
export function resultOf(outcome: JobOutcome): SplitResult[] {
  if (outcome.status === "done" && outcome.result) return outcome.result;
  const code = outcome.errorCode ?? "internal";
  const detail = outcome.errorDetail ?? "no reason recorded";
  if (ANALYSIS_ERROR_CODES.has(code)) throw new AnalysisError(code as AnalysisErrorCode, detail);
  throw new AnalysisJobError(outcome.jobId, detail);
}
