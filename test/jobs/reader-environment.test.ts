import { existsSync, readdirSync } from "node:fs";
import { join } from "node:path";
import { afterAll, describe, expect, it, vi } from "vitest";
import { ProcessPool } from "@/lib/readers/pool";
import { readerTempRoot } from "@/lib/readers/reader-environment";

/**
 * Readers hold no secrets and leave nothing behind: a reader's environment has
 * no session secret and no database URL, and the files a job wrote are gone
 * once it was killed at its deadline.
 */
const HOSTILE = join(process.cwd(), "test/fixtures/formats/hostile-jobs.ts");
const job = (exportName: string) => ({ module: HOSTILE, exportName, args: [] });

describe("reader processes", () => {
  const pool = new ProcessPool({ size: 1 });
  afterAll(() => {
    pool.close();
    vi.unstubAllEnvs();
  });

  it("see no secret of the server", async () => {
    vi.stubEnv("NEXTAUTH_SECRET", "a-secret-the-reader-must-not-see");
    vi.stubEnv("DATABASE_URL", "postgres://postgres@127.0.0.1:5432/secret");
    const names = await pool.run<string[]>(job("environmentNames"));
    expect(names).not.toContain("NEXTAUTH_SECRET");
    expect(names).not.toContain("DATABASE_URL");
    expect(names).toContain("PATH");
  });

  it("leave no file behind when killed mid-job", async () => {
    await expect(pool.run(job("writeTempFileAndHang"), { cpuBudgetMs: 3_000 })).rejects.toMatchObject({ code: "timeout" });
    const root = readerTempRoot();
    expect(existsSync(root) ? readdirSync(root) : []).toEqual([]);
  });
});
