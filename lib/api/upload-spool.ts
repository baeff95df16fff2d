import "server-only";
import { createWriteStream } from "node:fs";
import { mkdir, mkdtemp, readdir, readFile, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { Readable } from "node:stream";
import { pipeline } from "node:stream/promises";
import { isProcessAlive } from "@/lib/process-alive";

/** Every process spools under a root of its own (its pid), so a sweep knows whose leftovers it finds. */
const SPOOL_ROOT = join(tmpdir(), "shipshape-uploads");

/**
 * Where one request's file parts go while its body streams in: each part is
 * written to a private temporary file as it arrives, so a slow or large
 * upload holds no memory while the client sends it, and is read back once,
 * into one buffer of its exact size, when it is complete (never as a list of
 * chunks and then their copy). `remove` deletes the files whatever happened.
 */
export class UploadSpool {
  private dir: Promise<string> | undefined;
  private count = 0;
  /** Parts still being written, with their streams: removal stops and waits for them. */
  private readonly writing = new Map<Promise<string>, Readable>();
  private removed = false;

  private directory(): Promise<string> {
    this.dir ??= (async () => {
      const root = join(SPOOL_ROOT, String(process.pid));
      await mkdir(root, { recursive: true, mode: 0o700 });
      return mkdtemp(join(root, "request-"));
    })();
    return this.dir;
  }

  /** Writes a part's stream to a file of its own; resolves with the file's path once every byte is on disk. */
  write(stream: Readable): Promise<string> {
    const written = (async () => {
      const dir = await this.directory();
      // A part that reaches here after removal began opens no file (and a stream destroyed before
      // it was piped would never settle its pipeline).
      if (this.removed) throw new Error("The upload was refused before this part was stored.");
      const path = join(dir, `part-${this.count++}`);
      await pipeline(stream, createWriteStream(path, { mode: 0o600 }));
      return path;
    })();
    this.writing.set(written, stream);
    const settled = () => void this.writing.delete(written);
    written.then(settled, settled);
    return written;
  }

  /** The spooled file's bytes, in one buffer of their size (a view, not a copy). */
  async read(path: string): Promise<Uint8Array> {
    const buffer = await readFile(path);
    return new Uint8Array(buffer.buffer, buffer.byteOffset, buffer.byteLength);
  }

  /**
   * Stops the parts still being written and waits until they have settled, then deletes the
   * directory: a write that opened its file after the directory was listed would make the removal
   * fail (ENOTEMPTY) or leave the file behind.
   */
  async remove(): Promise<void> {
    this.removed = true;
    for (const stream of this.writing.values()) stream.destroy();
    await Promise.allSettled(this.writing.keys());
    const dir = await this.dir?.catch(() => undefined);
    if (dir) await rm(dir, { recursive: true, force: true });
  }
}

/** This process's spool directory (tests look there for leftovers). */
export function uploadSpoolRoot(pid: number = process.pid): string {
  return join(SPOOL_ROOT, String(pid));
}

/** Removes what processes that are gone left spooled (one killed mid-upload cannot clean up after itself). */
export async function sweepOrphanedUploadSpools(): Promise<void> {
  const entries = await readdir(SPOOL_ROOT).catch(() => [] as string[]);
  for (const entry of entries) {
    const pid = Number(entry);
    if (Number.isInteger(pid) && pid !== process.pid && !isProcessAlive(pid)) await rm(join(SPOOL_ROOT, entry), { recursive: true, force: true });
  }
}
