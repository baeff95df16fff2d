import { EventEmitter } from "node:events";
import type { PageText, SplitResult } from "@/lib/analysis";

/** How a job ended, as the process that ran it announces it (the result only when it ran here). */
export interface JobOutcome {
  jobId: string;
  status: "done" | "failed";
  errorCode?: string | null;
  errorDetail?: string | null;
  result?: SplitResult[];
  pageText?: PageText[];
}

const KEY = Symbol.for("shipshape.analysis-job-events");

/**
 * Jobs that end in this process are announced here, so that a synchronous
 * request whose job ran on the in-process worker learns of it at once, with
 * the result in hand, instead of polling the database.
 */
export function jobEvents(): EventEmitter {
  const holder = globalThis as typeof globalThis & { [KEY]?: EventEmitter };
  if (!holder[KEY]) {
    holder[KEY] = new EventEmitter();
    // Every waiting request listens; there is no leak to warn about.
    holder[KEY].setMaxListeners(0);
  }
  return holder[KEY];
}

export function announceOutcome(outcome: JobOutcome): void {
  jobEvents().emit(outcome.jobId, outcome);
}

const CLAIMED = ":claimed";

/** A job was taken by this process's worker: its outcome will be announced here, so a waiter here need not poll for it. */
export function announceClaim(jobId: string): void {
  jobEvents().emit(`${jobId}${CLAIMED}`);
}

export function claimEventOf(jobId: string): string {
  return `${jobId}${CLAIMED}`;
}
