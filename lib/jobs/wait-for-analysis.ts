import type { Db } from "@/db/client";
import { findAnalysis } from "@/db/queries/analyses";
import { findAnalysisJob } from "@/db/queries/analysis-jobs";
import type { PageText, SplitResult } from "@/lib/analysis";
import { claimEventOf, jobEvents, type JobOutcome } from "./job-events";

/** Polls for a job that another process runs start at this and double up to the cap. */
const FIRST_POLL_MS = 50;
const MAX_POLL_MS = 1_000;

export interface FinishedJob {
  jobId: string;
  organizationId: string;
  /**
   * The status the caller last saw. A job seen `queued` (just submitted) is
   * not looked up at once: this process's worker usually takes it within
   * FIRST_POLL_MS and then announces its ending, so the look is not needed.
   */
  status?: string;
}

/** The outcome recorded in the database, or undefined while the job is unfinished. */
async function recordedOutcome(db: Db, job: FinishedJob): Promise<JobOutcome | undefined> {
  const row = await findAnalysisJob(db, { organizationId: job.organizationId, jobId: job.jobId });
  if (!row) return { jobId: job.jobId, status: "failed", errorCode: "internal", errorDetail: "the job no longer exists" };
  if (row.status === "failed") return { jobId: row.id, status: "failed", errorCode: row.errorCode, errorDetail: row.errorDetail };
  if (row.status !== "done") return undefined;
  const analysis = await findAnalysis(db, { organizationId: job.organizationId, analysisId: row.id });
  return { jobId: row.id, status: "done", result: analysis?.result as SplitResult[], pageText: (analysis?.pageText ?? []) as PageText[] };
}

/**
 * Resolves when the job has ended. A job that ends in this process (the
 * in-process worker) is announced at once, result included; one that another
 * process runs is read from the database, polled with a growing interval.
 * Once this process's worker has taken the job, the database is polled only
 * at the longest interval (in case the attempt fails and another process
 * retries it): each poll is a query on the one thread that also serves
 * requests and, on PGlite, runs the database.
 */
export function waitForAnalysis(db: Db, job: FinishedJob): Promise<JobOutcome> {
  const events = jobEvents();
  return new Promise<JobOutcome>((resolve, reject) => {
    let settled = false;
    let timer: ReturnType<typeof setTimeout> | undefined;
    let claimedHere = false;
    const stopListening = () => {
      clearTimeout(timer);
      events.off(job.jobId, finish);
      events.off(claimEventOf(job.jobId), onClaim);
    };
    const finish = (outcome: JobOutcome) => {
      if (settled) return;
      settled = true;
      stopListening();
      resolve(outcome);
    };
    const poll = (delayMs: number) => {
      recordedOutcome(db, job).then((outcome) => {
        if (settled) return;
        if (outcome) return finish(outcome);
        const next = claimedHere ? MAX_POLL_MS : delayMs;
        timer = setTimeout(() => poll(Math.min(MAX_POLL_MS, next * 2)), next);
      }, (error: unknown) => {
        if (settled) return;
        settled = true;
        stopListening();
        reject(error);
      });
    };
    const onClaim = () => {
      claimedHere = true;
      if (timer === undefined || settled) return;
      clearTimeout(timer);
      timer = setTimeout(() => poll(MAX_POLL_MS), MAX_POLL_MS);
    };
    // Listen before the first look, so an ending between the two is not missed.
    events.on(job.jobId, finish);
    events.on(claimEventOf(job.jobId), onClaim);
    if (job.status === "queued") timer = setTimeout(() => poll(FIRST_POLL_MS * 2), FIRST_POLL_MS);
    else poll(FIRST_POLL_MS);
  });
}
