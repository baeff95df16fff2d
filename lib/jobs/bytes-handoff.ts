/**
 * The bytes of a job just submitted, kept for this process's own worker so it
 * need not read back what the request has just stored (a statement and the
 * file's bytes through the database, on PGlite on the server's own thread).
 * The stored copy stays the truth: a job taken by another process, retried,
 * or not taken before its entry expires reads it from the database. Bounded
 * in bytes and in time, so waiting jobs never pile their files up in memory.
 */
const HANDOFF_MAX_BYTES = 32 * 2 ** 20;
/** A job not taken this soon waits behind others: its worker reads the stored copy. */
const HANDOFF_TTL_MS = 2_000;

interface Entry {
  bytes: Uint8Array;
  timer: ReturnType<typeof setTimeout>;
}

const KEY = Symbol.for("shipshape.job-bytes-handoff");

interface Handoff {
  entries: Map<string, Entry>;
  bytes: number;
}

function handoff(): Handoff {
  const holder = globalThis as typeof globalThis & { [KEY]?: Handoff };
  return (holder[KEY] ??= { entries: new Map(), bytes: 0 });
}

/** Keeps a submitted job's bytes for this process's worker, when they fit. */
export function offerJobBytes(jobId: string, bytes: Uint8Array): void {
  const state = handoff();
  if (state.entries.has(jobId) || state.bytes + bytes.length > HANDOFF_MAX_BYTES) return;
  const timer = setTimeout(() => takeJobBytes(jobId), HANDOFF_TTL_MS);
  timer.unref();
  state.entries.set(jobId, { bytes, timer });
  state.bytes += bytes.length;
}

/** The job's bytes if this process still holds them (once: they are forgotten here). */
export function takeJobBytes(jobId: string): Uint8Array | undefined {
  const state = handoff();
  const entry = state.entries.get(jobId);
  if (!entry) return undefined;
  clearTimeout(entry.timer);
  state.entries.delete(jobId);
  state.bytes -= entry.bytes.length;
  return entry.bytes;
}
