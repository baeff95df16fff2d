import "server-only";
import { createHash } from "node:crypto";
import type { Db } from "@/db/client";
import { newId } from "@/db/ids";
import { withSystemScope } from "@/db/scope";
import { logError } from "@/lib/log";
import { deleteAbandonedUploads, deleteUnreceivedFiles, insertFileChunk, sealStoredFile, STORED_FILE_CHUNK_BYTES } from "@/db/queries/sets-storage";
import { sniffFormat, type DocumentFormat } from "@/lib/analysis";
import type { StoredUpload } from "@/lib/jobs";
import { UploadStoreError, type FileSink } from "./multipart";

/** What sniffFormat reads of a file's head at most (an e-mail's header block, a PDF header after junk). */
const SNIFF_HEAD_BYTES = 4096;
const ZIP_SIGNATURE = Buffer.from([0x50, 0x4b, 0x03, 0x04]);
/** A ZIP is a DOCX when this name appears in it, anywhere (as sniffFormat decides on whole files). */
const DOCX_MARKER = Buffer.from("word/document.xml", "latin1");

/**
 * An upload still unreceived this long after it began belongs to a request
 * that died mid-body (its process was killed: nothing else could discard it).
 * Far longer than any upload takes, even a slow one at the size limit.
 */
const ABANDONED_UPLOAD_SECONDS = 6 * 60 * 60;
/** How often a running process sweeps them: an upload is removed at most this long after it counts as abandoned. */
const SWEEP_INTERVAL_MS = 30 * 60 * 1000;

const HIGH_WATER = Symbol.for("shipshape.upload-intake-high-water");

function highWater(): { bytes: number } {
  const holder = globalThis as typeof globalThis & { [HIGH_WATER]?: { bytes: number } };
  return (holder[HIGH_WATER] ??= { bytes: 0 });
}

/** The most bytes one upload's intake has held at once in this process, since the last reset (tests). */
export function uploadIntakeHighWater(): number {
  return highWater().bytes;
}

export function resetUploadIntakeHighWater(): void {
  highWater().bytes = 0;
}

/**
 * Writes a file part (or a fetched document's body) into chunked storage as
 * it arrives: one chunk buffer (STORED_FILE_CHUNK_BYTES) is filled from the
 * stream and written as a row when full, while the stream waits
 * (backpressure reaches the sender), so an upload never costs more than its
 * chunk in memory, whatever its size. The size, SHA-256 and format are
 * worked out on the way and recorded with the last chunk. The file is not
 * received yet: the caller's accepting transaction marks it, or the sink's
 * discard removes it. `holdSmall`: a file that ends inside its first chunk is
 * never written here but held (StoredUpload.bytes): the accepting transaction
 * writes it, received at once, in the statement that queues its job, and this
 * process's worker takes it without reading it back.
 */
async function storeUploadStream(
  db: Db,
  key: { organizationId: string; storageKey: string },
  stream: AsyncIterable<Uint8Array>,
  options: { holdSmall: boolean; written: () => void },
): Promise<StoredUpload> {
  const hash = createHash("sha256");
  const chunk = Buffer.allocUnsafeSlow(STORED_FILE_CHUNK_BYTES);
  const sniff = new FormatSniffer();
  let filled = 0;
  let chunkIndex = 0;
  let sizeBytes = 0;
  const flush = async (seal?: { sizeBytes: number; sha256: string }) => {
    const bytes = chunk.subarray(0, filled);
    sniff.scan(bytes, chunkIndex);
    if (chunkIndex === 0) options.written();
    await stored(insertFileChunk(db, { ...key, chunkIndex, bytes, opens: chunkIndex === 0, seal }));
    chunkIndex++;
    filled = 0;
  };
  for await (const piece of stream) {
    hash.update(piece);
    sizeBytes += piece.byteLength;
    for (let offset = 0; offset < piece.byteLength; ) {
      const taken = Math.min(piece.byteLength - offset, chunk.length - filled);
      chunk.set(piece.subarray(offset, offset + taken), filled);
      filled += taken;
      offset += taken;
      if (filled > highWater().bytes) highWater().bytes = filled;
      // Written as soon as it is full: a sender may wait for it before sending more.
      if (filled === chunk.length) await flush();
    }
  }
  const sha256 = hash.digest("hex");
  if (options.holdSmall && chunkIndex === 0) {
    sniff.scan(chunk.subarray(0, filled), 0);
    return { storageKey: key.storageKey, sizeBytes, sha256, format: sniff.format(), bytes: new Uint8Array(chunk.subarray(0, filled)) };
  }
  // The last chunk (or the only one, or an empty file's empty chunk) with the file's length and digest;
  // a file that ended on a chunk's end has only them left to record.
  if (filled > 0 || chunkIndex === 0) await flush({ sizeBytes, sha256 });
  else await stored(sealStoredFile(db, { ...key, sizeBytes, sha256 }));
  return { storageKey: key.storageKey, sizeBytes, sha256, format: sniff.format() };
}

/** A failed write is the store's failure (500), never taken for a malformed body. */
function stored(write: Promise<void>): Promise<void> {
  return write.catch((error: unknown) => {
    throw new UploadStoreError(error);
  });
}

/**
 * sniffFormat's decision on the whole file from its chunks: every format but
 * DOCX is told by the head alone; a ZIP is a DOCX when the marker appears
 * anywhere, so later chunks are searched too (and across each boundary).
 */
class FormatSniffer {
  private head: Uint8Array | undefined;
  private zip = false;
  private markerSeen = false;
  private carry = Buffer.alloc(0);

  scan(bytes: Uint8Array, index: number): void {
    const buffer = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
    if (index === 0) {
      this.head = new Uint8Array(buffer.subarray(0, SNIFF_HEAD_BYTES));
      this.zip = buffer.subarray(0, ZIP_SIGNATURE.length).equals(ZIP_SIGNATURE);
    }
    if (!this.zip || this.markerSeen) return;
    const seam = Buffer.concat([this.carry, buffer.subarray(0, DOCX_MARKER.length - 1)]);
    this.markerSeen = seam.includes(DOCX_MARKER) || buffer.includes(DOCX_MARKER);
    this.carry = Buffer.from(buffer.subarray(Math.max(0, buffer.length - (DOCX_MARKER.length - 1))));
  }

  format(): DocumentFormat | undefined {
    const head = this.head ?? new Uint8Array(0);
    // Only a DOCX can need more than the head; a ZIP's head is never another format (sniffFormat's order).
    return sniffFormat(head) ?? (this.zip && this.markerSeen ? "docx" : undefined);
  }
}

/**
 * The sink for a request's files (multipart parts, or a fetched url's body):
 * each streams into chunked storage under the organization
 * (storeUploadStream). Files are stored one after another, a part waiting
 * (and the body with it, by backpressure) until the one before is stored, so
 * a request of many files holds one chunk buffer at a time, however many
 * small parts its body's pieces carry. `discard` removes whatever of them was
 * written and not received (the request was refused, cut or failed before
 * its transaction accepted it), once their writes have stopped. `holdSmall`:
 * each file that fits in one chunk is held whole until its transaction writes
 * it (one file per request: analyze, web uploads); without it every file is
 * written as it arrives and every job reads its file from storage (compare's
 * files, which would otherwise all be held at once).
 */
export function chunkedUploadSink(db: Db, organizationId: string, options: { holdSmall: boolean } = { holdSmall: true }): FileSink<{ upload: StoredUpload }> {
  const pending: Promise<StoredUpload>[] = [];
  const writtenKeys: string[] = [];
  let previous: Promise<unknown> = Promise.resolve();
  return {
    receive(stream: AsyncIterable<Uint8Array>) {
      const storageKey = newId("blob");
      const written = () => void writtenKeys.push(storageKey);
      // A failed file fails the request: the files after it are never stored.
      const stored = previous.then(() => storeUploadStream(db, { organizationId, storageKey }, stream, { holdSmall: options.holdSmall, written }));
      previous = stored;
      pending.push(stored);
      return stored.then((upload) => ({ upload }));
    },
    async discard() {
      // A write still in flight would add a chunk after the delete: wait until every one has stopped.
      await Promise.allSettled(pending);
      // A file held whole never reached storage: nothing to remove, no statement.
      await deleteUnreceivedFiles(db, { organizationId, storageKeys: writtenKeys });
    },
  };
}

/**
 * Removes the uploads of requests that died mid-body in any process (every
 * organization's): called as each server (instrumentation.ts) and each
 * `npm run worker` (scripts/worker.ts) starts, so a host that only runs
 * workers sweeps too, and then every SWEEP_INTERVAL_MS while it runs
 * (sweepAbandonedUploadsPeriodically).
 */
export async function sweepAbandonedUploads(db: Db): Promise<number> {
  return withSystemScope("abandoned uploads", () => deleteAbandonedUploads(db, { olderThanSeconds: ABANDONED_UPLOAD_SECONDS }));
}

/**
 * Sweeps again every `intervalMs` while the process runs: a server that runs
 * for weeks would otherwise keep a dead request's upload until its next
 * start. The timer never keeps the process alive; a sweep still under way
 * when the next is due is not doubled. Returns the stop (at shutdown), which
 * waits for a sweep under way.
 */
export function sweepAbandonedUploadsPeriodically(db: Db, options: { intervalMs?: number } = {}): () => Promise<void> {
  let sweeping: Promise<void> | undefined;
  const timer = setInterval(() => {
    sweeping ??= sweepAbandonedUploads(db)
      .then(() => undefined, (error: unknown) => logError("sweeping abandoned uploads", error))
      .finally(() => (sweeping = undefined));
  }, options.intervalMs ?? SWEEP_INTERVAL_MS);
  timer.unref();
  return async () => {
    clearInterval(timer);
    await sweeping;
  };
}
