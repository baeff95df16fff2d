import type { JobProgress } from "@/db/queries/analysis-jobs";
import type { ReadingProgress } from "@/lib/analysis";
import { logError } from "@/lib/log";

/**
 * A running job's progress, from the reader's reports to the job's row. A
 * scanned page takes seconds to read, so a write per report would already be
 * rare, but a file of digital pages and OCR'd pages can report in bursts: at
 * most one write per interval, the latest report always written in the end.
 */
const PROGRESS_WRITE_INTERVAL_MS = 1_000;

interface Observation {
  at: number;
  pagesDone: number;
}

/**
 * When the reading should end, at the pace of the pages read since the first
 * report (the first report comes once the page count is known, so the time to
 * start the reader and open the file is not counted as a page's). Undefined
 * until a page has been read since then: no estimate from nothing.
 */
export function estimateEnd(first: Observation, latest: Observation & { pagesTotal: number }): number | undefined {
  const read = latest.pagesDone - first.pagesDone;
  if (read <= 0) return undefined;
  const perPage = (latest.at - first.at) / read;
  return latest.at + perPage * Math.max(0, latest.pagesTotal - latest.pagesDone);
}

/** Whole seconds from now until the estimated end, never below zero; null without an estimate. */
export function secondsLeft(estimatedEndAt: Date | null, now: Date = new Date()): number | null {
  if (!estimatedEndAt) return null;
  return Math.max(0, Math.ceil((estimatedEndAt.getTime() - now.getTime()) / 1000));
}

/** Whole minutes from now until the estimated end (0 under half a minute); null without an estimate. */
export function minutesLeft(estimatedEndAt: Date | null, now: Date = new Date()): number | null {
  const seconds = secondsLeft(estimatedEndAt, now);
  return seconds === null ? null : Math.round(seconds / 60);
}

export interface ProgressRecorder {
  report(progress: ReadingProgress): void;
  /** No more writes after this; resolves once a write under way has ended (before the job's row is settled). */
  close(): Promise<void>;
}

/**
 * Hears a reader's reports and writes them through `write`, throttled. A
 * failed write is logged and forgotten: progress must never fail the job.
 * Nothing is written before a page has been read (the job's row says
 * `running` already), nor for a one-page file, whose one report comes as the
 * job is about to end: each write is a statement on the server's thread, and
 * on PGlite on the thread that runs the database.
 */
export function progressRecorder(
  write: (progress: JobProgress) => Promise<void>,
  options: { intervalMs?: number; now?: () => number; context?: string } = {},
): ProgressRecorder {
  const intervalMs = options.intervalMs ?? PROGRESS_WRITE_INTERVAL_MS;
  const now = options.now ?? Date.now;
  let first: Observation | undefined;
  let pending: JobProgress | undefined;
  let lastWriteAt = -Infinity;
  let timer: ReturnType<typeof setTimeout> | undefined;
  let writing: Promise<void> = Promise.resolve();
  let closed = false;

  const flush = () => {
    timer = undefined;
    const progress = pending;
    if (closed || !progress) return;
    pending = undefined;
    lastWriteAt = now();
    writing = writing.then(() => (closed ? undefined : write(progress))).catch((error: unknown) => logError(options.context ?? "job progress", error));
  };

  return {
    report({ pagesDone, pagesTotal }) {
      if (closed) return;
      const at = now();
      first ??= { at, pagesDone };
      const end = estimateEnd(first, { at, pagesDone, pagesTotal });
      if (pagesDone === 0 || pagesTotal <= 1) return;
      pending = { pagesDone, pagesTotal, estimatedEndAt: end === undefined ? null : new Date(end) };
      if (timer) return;
      const wait = lastWriteAt + intervalMs - at;
      if (wait <= 0) flush();
      else timer = setTimeout(flush, wait);
    },
    async close() {
      closed = true;
      clearTimeout(timer);
      await writing;
    },
  };
}
