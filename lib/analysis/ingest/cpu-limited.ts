import { execFile } from "node:child_process";
import { AnalysisError } from "../errors";

/**
 * Runs an external reader (tesseract, pdftoppm, pdfinfo) under a limit of CPU
 * time rather than wall time: on a busy machine a run takes many times its CPU
 * time, and load alone must never fail a page that would be read. The shell
 * sets the limit (soft: never above a hard limit already set) and becomes the
 * command; a wall-clock backstop stops a run that stalls without spending CPU.
 */
const STALL_MS = 15 * 60_000;
/** Exit status of a shell that could not find the command. */
const COMMAND_NOT_FOUND = 127;
const SCRIPT = 'ulimit -S -t "$1" 2>/dev/null; shift; exec "$@"';

export interface CpuLimitedRun {
  cpuSeconds: number;
  maxBuffer: number;
  encoding: "utf8" | "latin1";
  env?: NodeJS.ProcessEnv;
  /** The 422 details: past the CPU limit, command missing, any other failure. */
  tooLong: string;
  notInstalled: string;
  failed: string;
}

export function runCpuLimited(command: string, args: string[], run: CpuLimitedRun): Promise<string> {
  const cpuSeconds = String(Math.max(1, Math.ceil(run.cpuSeconds)));
  return new Promise((resolve, reject) => {
    execFile(
      "sh",
      ["-c", SCRIPT, "sh", cpuSeconds, command, ...args],
      { env: run.env ?? process.env, timeout: STALL_MS, killSignal: "SIGKILL", maxBuffer: run.maxBuffer, encoding: run.encoding },
      (error, stdout) => {
        if (!error) return resolve(stdout);
        if (error.killed || error.signal === "SIGXCPU" || error.signal === "SIGKILL") return reject(new AnalysisError("timeout", run.tooLong));
        if (error.code === COMMAND_NOT_FOUND || (error as NodeJS.ErrnoException).code === "ENOENT") {
          return reject(new AnalysisError("unreadable", run.notInstalled));
        }
        reject(new AnalysisError("unreadable", run.failed));
      },
    );
  });
}
