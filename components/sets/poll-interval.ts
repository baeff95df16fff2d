/**
 * How long the set page waits before reading an unsettled set again. Analysis
 * of a file takes seconds to minutes: a fixed fast poll keeps every open tab
 * hitting the server for the whole wait, so the wait doubles while nothing
 * changes and starts again from the shortest as soon as something does.
 */
export const POLL_MIN_MS = 1000;
export const POLL_MAX_MS = 10_000;

/** The next wait, given the last one (null before the first poll) and whether the last read changed the set. */
export function nextPollInterval(previousMs: number | null, changed: boolean): number {
  if (previousMs === null || changed) return POLL_MIN_MS;
  return Math.min(previousMs * 2, POLL_MAX_MS);
}
