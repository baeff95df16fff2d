import type { ChildProcess } from "node:child_process";
import { readdirSync, readFileSync } from "node:fs";

const PAGE_SIZE_BYTES = 4096;
/**
 * Clock ticks per second of the times in /proc/<pid>/stat: USER_HZ, which the
 * kernel reports as 100 on every architecture Linux runs Node on (it is part
 * of the user-space ABI, whatever the kernel's own tick rate).
 */
const CLOCK_TICKS_PER_SECOND = 100;

/** What a process (or a process group) uses: resident memory, and processor time spent. */
export interface Usage {
  residentBytes: number;
  /**
   * Processor time, user and system, ms: the process's own and that of its
   * children it has waited for (the OCR and renderer runs that have ended).
   */
  cpuMs: number;
}

/**
 * The fields of a /proc/<pid>/stat line after "pid (comm) " (comm may hold
 * spaces and parentheses; it ends at the last ")"): fields[0] is the state
 * (field 3 of the line), so field N of proc(5) is fields[N - 3].
 */
function statFields(stat: string): string[] {
  return stat.slice(stat.lastIndexOf(")") + 2).split(" ");
}

function usageOf(fields: string[]): Usage {
  // utime (14), stime (15), cutime (16), cstime (17); rss (24), in pages.
  const ticks = Number(fields[11]) + Number(fields[12]) + Number(fields[13]) + Number(fields[14]);
  return { residentBytes: Number(fields[21]) * PAGE_SIZE_BYTES, cpuMs: (ticks * 1000) / CLOCK_TICKS_PER_SECOND };
}

/** Resident memory and processor time of one process from /proc, or undefined where /proc is not available. */
export function processUsage(pid: number): Usage | undefined {
  try {
    const usage = usageOf(statFields(readFileSync(`/proc/${pid}/stat`, "utf8")));
    return Number.isFinite(usage.residentBytes) && Number.isFinite(usage.cpuMs) ? usage : undefined;
  } catch {
    return undefined;
  }
}

/**
 * Resident memory and processor time of a whole process group (a reader and
 * the OCR and renderer processes it started), from /proc; undefined where
 * /proc is not available. A process that has ended counts in the processor
 * time of the member that waited for it, so the group's time only grows.
 * Scans every process, so it is polled less often than the reader's own usage.
 */
export function groupUsage(groupId: number): Usage | undefined {
  let entries: string[];
  try {
    entries = readdirSync("/proc");
  } catch {
    return undefined;
  }
  const total: Usage = { residentBytes: 0, cpuMs: 0 };
  for (const entry of entries) {
    const first = entry.charCodeAt(0);
    if (first < 48 || first > 57) continue;
    try {
      const fields = statFields(readFileSync(`/proc/${entry}/stat`, "utf8"));
      // pgrp is field 5.
      if (Number(fields[2]) !== groupId) continue;
      const usage = usageOf(fields);
      total.residentBytes += usage.residentBytes;
      total.cpuMs += usage.cpuMs;
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
