import type { ChildProcess } from "node:child_process";
import { readFileSync } from "node:fs";

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

/** Kills the child and everything it started (it leads its own process group). */
export function killGroup(child: ChildProcess): void {
  if (child.pid === undefined || child.exitCode !== null || child.signalCode !== null) return;
  try {
    process.kill(-child.pid, "SIGKILL");
  } catch {
    child.kill("SIGKILL");
  }
}
