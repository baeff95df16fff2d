/**
 * Starts test/support/serve.ts as its own OS process (the real route module
 * over Node http) and reads its memory from /proc, for multi-process and
 * memory tests and the endpoint benchmark.
 */
import { spawn, type ChildProcess } from "node:child_process";
import { readFile, writeFile } from "node:fs/promises";
import path from "node:path";
import { fileURLToPath } from "node:url";
import SERVER_NODE_FLAGS from "../../scripts/server-node-flags.json";

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../..");
const SERVE_SCRIPT = path.join(ROOT, "test/support/serve.ts");
/** Loading tsx, migrating the database and starting the readers (all before the port is announced) can take a while on a busy machine. */
const START_TIMEOUT_MS = 300_000;
const KIB = 1024;

export interface ServerProcess {
  pid: number;
  /** e.g. http://127.0.0.1:41234 */
  origin: string;
  stop(): Promise<void>;
}

/** Spawns serve.ts with `env` added to this process's environment (PORT: any free port unless given); resolves once it listens. */
export function startServerProcess(env: Record<string, string | undefined>): Promise<ServerProcess> {
  const child: ChildProcess = spawn(process.execPath, [...SERVER_NODE_FLAGS, "--import", "tsx", "--conditions=react-server", SERVE_SCRIPT], {
    cwd: ROOT,
    env: { ...process.env, ...env, PORT: env.PORT ?? "0", NEXT_TELEMETRY_DISABLED: "1" },
    stdio: ["ignore", "pipe", "pipe"],
  });
  let stderr = "";
  child.stderr?.on("data", (chunk: Buffer) => (stderr += chunk.toString()));
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => {
      child.kill("SIGKILL");
      reject(new Error(`serve.ts did not start within ${START_TIMEOUT_MS} ms\n${stderr}`));
    }, START_TIMEOUT_MS);
    child.once("exit", (code) => {
      clearTimeout(timer);
      reject(new Error(`serve.ts exited with ${code}\n${stderr}`));
    });
    let stdout = "";
    child.stdout?.on("data", (chunk: Buffer) => {
      stdout += chunk.toString();
      const match = /\{"port":(\d+)\}/.exec(stdout);
      if (!match || child.pid === undefined) return;
      clearTimeout(timer);
      child.removeAllListeners("exit");
      resolve({
        pid: child.pid,
        origin: `http://127.0.0.1:${match[1]}`,
        stop: () =>
          new Promise<void>((done) => {
            if (child.exitCode !== null) return done();
            child.once("exit", () => done());
            child.kill("SIGTERM");
          }),
      });
    });
  });
}

/** Current and peak resident set size of a process, in bytes (Linux /proc). */
export async function readRss(pid: number): Promise<{ rss: number; peak: number }> {
  const status = await readFile(`/proc/${pid}/status`, "utf8");
  const kib = (field: string) => Number(new RegExp(`^${field}:\\s+(\\d+) kB`, "m").exec(status)?.[1] ?? NaN) * KIB;
  return { rss: kib("VmRSS"), peak: kib("VmHWM") };
}

/** Resets a process's peak RSS (VmHWM) to its current RSS, so a later peak measures one operation. */
export async function resetPeakRss(pid: number): Promise<void> {
  await writeFile(`/proc/${pid}/clear_refs`, "5");
}
