import { randomBytes } from "node:crypto";
import { readdirSync, rmSync } from "node:fs";
import { rm, rmdir } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { isProcessAlive } from "@/lib/process-alive";

/**
 * What a reader process may see of the world. Readers parse hostile files, so
 * they get no secret (no session secret, no database URL: a parser exploit
 * finds nothing to steal) and no lasting place to write: each job writes
 * under a temporary directory of its own, which the parent removes after the
 * job, however it ended (answered, failed, killed at its cap).
 */

/** The variables a reader needs: where programs are (tesseract, pdftoppm), the locale, the time zone. */
const PASSED_VARIABLES = ["PATH", "LANG", "LC_ALL", "TZ", "TESSDATA_PREFIX"];
/** All readers' temporary directories live under one root per parent process (its pid), so a sweep knows whose they are. */
const TEMP_ROOT = join(tmpdir(), "shipshape-readers");
/** Random bytes in a job directory's name: unique among a parent's jobs. */
const JOB_DIR_NAME_BYTES = 8;

/**
 * glibc malloc settings of a reader, so that what decoding an image (e-mail
 * attachments, PNG, JPEG: @napi-rs/canvas and pdfjs buffers of megabytes)
 * allocated goes back to the system once freed, instead of staying in the
 * reader's resident memory as a high-water mark:
 * - a fixed mmap threshold: each allocation above it is its own mapping,
 *   unmapped when freed. glibc's default threshold rises to the size of the
 *   largest block freed (up to 32 MiB), after which image buffers come from
 *   the heap and stay resident;
 * - a fixed trim threshold: free space at the top of the heap above it is given back;
 * - two arenas: threads that allocate at once (libuv's pool, the image
 *   decoder) otherwise get arenas of their own, up to 8 per core, each keeping
 *   its free space.
 * Measured on the fuzz's first 100 mutated PNGs read one after another in one
 * reader, resident memory at start and every 12 files: 181 MB at start, then
 * 134–184 MB (136 at the end) with these; 194 MB, then 164–208 MB with glibc's defaults.
 */
const READER_MALLOC = { MALLOC_MMAP_THRESHOLD_: "131072", MALLOC_TRIM_THRESHOLD_: "131072", MALLOC_ARENA_MAX: "2" };

export function readerEnvironment(): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = { NODE_ENV: process.env.NODE_ENV ?? "production", ...READER_MALLOC };
  for (const name of PASSED_VARIABLES) if (process.env[name] !== undefined) env[name] = process.env[name];
  return env;
}

function processRoot(): string {
  return join(TEMP_ROOT, String(process.pid));
}

/**
 * Where one job may write: a fresh name, not yet made. The reader makes it
 * (mode 0700) before the job and points its TMPDIR there, so the server's
 * thread spends no file-system call on a job that writes nothing (a digital
 * PDF); the parent removes it after the job (removeJobTempDir), however it ended.
 */
export function jobTempDirPath(): string {
  return join(processRoot(), `job-${randomBytes(JOB_DIR_NAME_BYTES).toString("hex")}`);
}

/**
 * Removes a job's directory, off the server's thread. Most jobs (a digital
 * PDF) leave it empty, and the job settles only once it is gone: an empty one
 * goes in one call, where a recursive removal looks at it first.
 */
export async function removeJobTempDir(dir: string): Promise<void> {
  try {
    return await rmdir(dir);
  } catch (error) {
    if ((error as { code?: unknown }).code === "ENOENT") return;
  }
  await rm(dir, { recursive: true, force: true }).catch(() => undefined);
}

/** Removes what readers of processes that are gone left behind (a parent killed mid-job cannot clean up after itself). */
export function sweepOrphanedTempDirs(): void {
  let entries: string[];
  try {
    entries = readdirSync(TEMP_ROOT);
  } catch {
    return;
  }
  for (const entry of entries) {
    const pid = Number(entry);
    if (Number.isInteger(pid) && pid !== process.pid && !isProcessAlive(pid)) rmSync(join(TEMP_ROOT, entry), { recursive: true, force: true });
  }
}

/** Where a parent's readers write (tests look there for leftovers). */
export function readerTempRoot(pid: number = process.pid): string {
  return join(TEMP_ROOT, String(pid));
}
