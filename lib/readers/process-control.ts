import type { ChildProcess } from "node:child_process";
import { readdirSync, readFileSync } from "node:fs";

const PAGE_SIZE_BYTES = 4096;

/** Resident set size of a process from /proc, or undefined where /proc is not available. */
export function residentBytes(pid: number): number | undefined {
  try {
    const pages = Number(readFileSync(`/proc/${pid}/statm`, "utf8").split(" ")[1]);
    return Number.isFinite(pages) ? pages * PAGE_SIZE_BYTES : undefined;
  } catch {
    return undefined;
  }
}

/**
 * Resident memory of a whole process group (a reader and the OCR and renderer
 * processes it started), from /proc; undefined where /proc is not available.
 * Scans every process, so it is polled less often than the reader's own size.
 */
export function groupResidentBytes(groupId: number): number | undefined {
  let entries: string[];
  try {
    entries = readdirSync("/proc");
  } catch {
    return undefined;
  }
  let total = 0;
  for (const entry of entries) {
    const first = entry.charCodeAt(0);
    if (first < 48 || first > 57) continue;
    try {
      const stat = readFileSync(`/proc/${entry}/stat`, "utf8");
      // Fields after "pid (comm) ": state ppid pgrp … with rss the 24th field of the whole line.
      const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
      if (Number(fields[2]) === groupId) total += Number(fields[21]) * PAGE_SIZE_BYTES;
    } catch {
      // The process ended between the listing and the read.
    }
  }
  return total;
}

/** Kills the child and everything it started (it leads its own process group). */
export function killGroup(child: ChildProcess): void {
  if (child.pid === undefined || child.exitCode !== null || child.signalCode !== null) return;
  try {
    process.kill(-child.pid, "SIGKILL");
  } catch {
    child.kill("SIGKILL");
  }
}
