import "server-only";
import { env } from "@/lib/env";
import { ApiError } from "@/lib/errors";

const BYTES_PER_MB = 2 ** 20;
/** Uploads finish within seconds; a refused client should come back soon, not pile up. */
const RETRY_AFTER_SECONDS = 2;
const HELD = Symbol.for("shipshape.upload-bytes-in-flight");

interface Held {
  bytes: number;
}

function held(): Held {
  const holder = globalThis as typeof globalThis & { [HELD]?: Held };
  return (holder[HELD] ??= { bytes: 0 });
}

/** Gives the reserved bytes back once; later calls do nothing. */
export type ReleaseUpload = () => void;

/**
 * Reserves room in this process's budget of upload bytes in flight
 * (UPLOAD_BYTES_IN_FLIGHT_MB) before a body is read: the declared
 * Content-Length, or the largest body the route accepts when none is declared
 * (a chunked body may be that large). Bodies stream into storage a chunk at a
 * time, but each one in flight still holds its connection, its chunk and the
 * database's work, so the budget, not the number of clients, bounds what
 * uploads take at once: beyond it, 503 with Retry-After, without reading a byte.
 */
export function reserveUploadBytes(request: Request, maxBodyBytes: number): ReleaseUpload {
  const declared = Number(request.headers.get("content-length"));
  return reserveBytesInFlight(Number.isFinite(declared) && declared > 0 ? Math.min(declared, maxBodyBytes) : maxBodyBytes);
}

/**
 * Reserves `bytes` in the same budget: an upload's body, or a document
 * fetched for a `url` input (stored as it arrives, just as an upload is). A request
 * alone may always proceed (within its own limit), so a budget smaller than
 * one body never refuses every upload.
 */
export function reserveBytesInFlight(bytes: number): ReleaseUpload {
  const state = held();
  const budget = env().UPLOAD_BYTES_IN_FLIGHT_MB * BYTES_PER_MB;
  if (state.bytes > 0 && state.bytes + bytes > budget) {
    throw new ApiError(
      "unavailable",
      `The server is receiving as many uploads as it can hold at once; retry after ${RETRY_AFTER_SECONDS} s.`,
      { "retry-after": String(RETRY_AFTER_SECONDS) },
    );
  }
  state.bytes += bytes;
  let released = false;
  return () => {
    if (released) return;
    released = true;
    state.bytes -= bytes;
  };
}

/** Bytes of uploads this process holds now (tests). */
export function uploadBytesInFlight(): number {
  return held().bytes;
}
