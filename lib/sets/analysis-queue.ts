import "server-only";

/**
 * Analyses started by uploads run inside the server process after the
 * response (their state lives in the database), at most PARALLEL_ANALYSES at
 * a time in upload order: reading and OCR are CPU-bound, and a set of many
 * files must not starve the requests of everyone else. A test, or a
 * shutdown, can wait for every one of them to settle.
 */
export const PARALLEL_ANALYSES = 2;

interface Queue {
  waiting: (() => Promise<void>)[];
  running: Set<Promise<void>>;
  idle: (() => void)[];
}

const KEY = Symbol.for("shipshape.set-analyses");

function queue(): Queue {
  const holder = globalThis as typeof globalThis & { [KEY]?: Queue };
  holder[KEY] ??= { waiting: [], running: new Set(), idle: [] };
  return holder[KEY];
}

function pump(): void {
  const q = queue();
  while (q.running.size < PARALLEL_ANALYSES && q.waiting.length > 0) {
    const task = q.waiting.shift()!;
    const promise: Promise<void> = task()
      .catch((error: unknown) => console.error("background analysis failed", error))
      .finally(() => {
        q.running.delete(promise);
        pump();
      });
    q.running.add(promise);
  }
  if (q.running.size === 0 && q.waiting.length === 0) q.idle.splice(0).forEach((resolve) => resolve());
}

/** Queues `task` without waiting for it; `task` records its own outcome. */
export function startInBackground(task: () => Promise<void>): void {
  queue().waiting.push(task);
  pump();
}

/** Resolves when every queued and running analysis has settled. */
export function settleBackgroundAnalyses(): Promise<void> {
  const q = queue();
  if (q.running.size === 0 && q.waiting.length === 0) return Promise.resolve();
  return new Promise((resolve) => q.idle.push(resolve));
}
