import "server-only";
import { findAnalysis } from "@/db/queries/analyses";
import { findAnalysisJob } from "@/db/queries/analysis-jobs";
import { listWebhookAttempts } from "@/db/queries/webhooks";
import { analysisQueue } from "@/lib/jobs";
import type { AnalysisJobRow } from "@/db/schema";
import { secondsLeft } from "@/lib/jobs/job-progress";
import { correctedAnalysis, type ApiCorrection } from "@/lib/sets/corrected-analysis";
import { ANALYSIS_ID_PATTERN } from "./compare-analyses";
import { ApiError } from "@/lib/errors";
import type { KeyedContext } from "./handler";
import { callbackStatusBody, type CallbackStatusBody } from "./callback-status";
import { ANALYSES_PATH } from "./openapi-analyses";
/** How soon a client polling an unfinished analysis should ask again, seconds. */
const POLL_AFTER_SECONDS = 1;

/** Where an analysis's status is read: the 202's Location. */
export function analysisLocation(id: string): string {
  return `${ANALYSES_PATH}/${id}`;
}

export interface AnalysisStatusBody {
  id: string;
  status: AnalysisJobRow["status"];
  /** When done: exactly the array the synchronous call returns. */
  result?: unknown;
  /** When failed: why, in the words the synchronous call would have answered. */
  detail?: string;
  /** For a file of a document set: the values a checker corrected (`result` carries them). */
  corrections?: ApiCorrection[];
  /** While running, once the reader knows the page count: how far it has got. */
  progress?: { pages_done: number; pages_total: number; seconds_left: number | null };
  /** With a callback_url: how its delivery stands (getAnalysis only; a webhook's own body has none). */
  callback?: CallbackStatusBody;
}

type StatusFields = Pick<AnalysisJobRow, "id" | "status" | "errorDetail"> & Partial<Pick<AnalysisJobRow, "pagesDone" | "pagesTotal" | "estimatedEndAt">>;

export function analysisStatusBody(job: StatusFields, result?: unknown, now: Date = new Date()): AnalysisStatusBody {
  if (job.status === "done") return { id: job.id, status: job.status, result };
  if (job.status === "failed") return { id: job.id, status: job.status, detail: job.errorDetail ?? "The analysis failed." };
  if (job.status === "running" && job.pagesDone != null && job.pagesTotal != null) {
    const progress = { pages_done: job.pagesDone, pages_total: job.pagesTotal, seconds_left: secondsLeft(job.estimatedEndAt ?? null, now) };
    return { id: job.id, status: job.status, progress };
  }
  return { id: job.id, status: job.status };
}

/**
 * GET /v1/analyses/{id}: the status of an analysis of the key's organization
 * and, once done, its analyze array. Another organization's id is exactly as
 * absent as one that never existed (404, same words).
 */
export function analysisStatusRequest(id: string) {
  return async (_request: Request, { db, key }: KeyedContext): Promise<Response> => {
    const notFound = new ApiError("not_found", `No analysis ${id.slice(0, 40)} was found for this API key's organization.`);
    if (!ANALYSIS_ID_PATTERN.test(id)) throw notFound;
    const scope = { organizationId: key.organizationId };
    const job = await findAnalysisJob(db, { ...scope, jobId: id });
    if (!job) throw notFound;
    const analysis = job.status === "done" ? await findAnalysis(db, { ...scope, analysisId: id }) : undefined;
    // A set file's analysis answers as the checker left it: splits and values corrected, and which values were.
    const corrected = analysis ? await correctedAnalysis(db, { ...scope, analysisId: id }) : undefined;
    const finished = job.status === "done" || job.status === "failed";
    const body: AnalysisStatusBody = analysisStatusBody(job, corrected?.result ?? analysis?.result);
    if (corrected) body.corrections = corrected.corrections;
    if (job.callbackUrl) {
      const attempts = await listWebhookAttempts(db, { ...scope, analysisId: id });
      // Queued with the job's ending: an unfinished job has no delivery entry to look for.
      const entry = finished ? await (await analysisQueue(db)).webhookEntry(id) : undefined;
      body.callback = callbackStatusBody(job.callbackUrl, attempts, entry);
    }
    return Response.json(body, {
      headers: finished ? {} : { "retry-after": String(POLL_AFTER_SECONDS) },
    });
  };
}
