import { afterAll, describe, expect, it } from "vitest";
import { readerPreload } from "@/lib/readers/ingest-isolated";
import { ProcessPool } from "@/lib/readers/pool";
import { isReader, processTree } from "@/scripts/fuzz-server";

const pool = new ProcessPool({ size: 1, preload: readerPreload() });
afterAll(() => pool.close());

describe("npm run fuzz's view of the server's processes", () => {
  it("tells a reader from what is left behind (a reader counted as a leftover failed every run)", async () => {
    pool.warm();
    await pool.ready();
    const below = processTree(process.pid).filter((p) => p.pid !== process.pid);
    expect(below.filter(isReader)).toHaveLength(1);
    expect(below.filter(isReader)[0]!.rssBytes).toBeGreaterThan(0);
  });
});
