import { spawn, type ChildProcess } from "node:child_process";
import path from "node:path";
import { eq, inArray } from "drizzle-orm";
import type { Db } from "@/db/client";
import { analyses, analysisJobs } from "@/db/schema";

const ROOT = path.resolve(import.meta.dirname, "../..");
const START_TIMEOUT_MS = 90_000;

export interface WorkerProcess {
  child: ChildProcess;
  /** Resolves when the process has exited. */
  exited: Promise<void>;
}

/** Runs `npm run worker` (scripts/worker.ts) as its own OS process; resolves once it says it is ready. */
export function startWorkerProcess(env: Record<string, string | undefined>): Promise<WorkerProcess> {
  const child = spawn(process.execPath, ["--conditions=react-server", "--import", "tsx", path.join(ROOT, "scripts/worker.ts")], {
    cwd: ROOT,
    env: { ...process.env, ...env },
    stdio: ["ignore", "pipe", "pipe"],
  });
  const exited = new Promise<void>((resolve) => child.once("exit", () => resolve()));
  let stderr = "";
  child.stderr?.on("data", (chunk: Buffer) => (stderr += chunk.toString()));
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`worker did not start\n${stderr}`)), START_TIMEOUT_MS);
    child.once("exit", (code) => reject(new Error(`worker exited with ${code}\n${stderr}`)));
    let stdout = "";
    child.stdout?.on("data", (chunk: Buffer) => {
      stdout += chunk.toString();
      if (!stdout.includes('"worker":"ready"')) return;
      clearTimeout(timer);
      resolve({ child, exited });
    });
  });
}

/** Polls until `check` holds (a state reached by other processes), failing after `timeoutMs`. */
export async function until(check: () => Promise<boolean>, timeoutMs: number, what: string): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error(`gave up waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

/** Each job's status and how many analyses carry its id. */
export async function jobStates(db: Db, jobIds: string[]): Promise<{ id: string; status: string; analyses: number }[]> {
  const jobs = await db.select({ id: analysisJobs.id, status: analysisJobs.status }).from(analysisJobs).where(inArray(analysisJobs.id, jobIds));
  const stored = await db.select({ id: analyses.id }).from(analyses).where(inArray(analyses.id, jobIds));
  return jobs.map((job) => ({ ...job, analyses: stored.filter((a) => a.id === job.id).length }));
}

export async function statusOf(db: Db, jobId: string): Promise<string | undefined> {
  const [row] = await db.select({ status: analysisJobs.status }).from(analysisJobs).where(eq(analysisJobs.id, jobId));
  return row?.status;
}
