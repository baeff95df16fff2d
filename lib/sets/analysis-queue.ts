import "server-only";

/**
 * Analyses started by uploads run inside the server process after the
 * response (their state lives in the database). They are kept here so a test,
 * or a shutdown, can wait for every one of them to settle.
 */
const KEY = Symbol.for("shipshape.set-analyses");
type Holder = typeof globalThis & { [KEY]?: Set<Promise<void>> };

function running(): Set<Promise<void>> {
  const holder = globalThis as Holder;
  holder[KEY] ??= new Set();
  return holder[KEY];
}

/** Starts `task` without waiting for it; `task` reports its own failures. */
export function startInBackground(task: () => Promise<void>): void {
  const promise = task().finally(() => running().delete(promise));
  running().add(promise);
}

/** Resolves when every analysis started so far (and any started meanwhile) has settled. */
export async function settleBackgroundAnalyses(): Promise<void> {
  while (running().size > 0) await Promise.allSettled([...running()]);
}
