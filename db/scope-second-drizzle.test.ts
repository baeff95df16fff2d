import { execFileSync } from "node:child_process";
import { mkdirSync, mkdtempSync, realpathSync, rmSync, symlinkSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { pathToFileURL } from "node:url";
import { PGlite } from "@electric-sql/pglite";
import { sql } from "drizzle-orm";
import { PgTransaction } from "drizzle-orm/pg-core";
import { afterAll, describe, expect, it } from "vitest";
import type { Db } from "./client";
import { queryRows } from "./queries/rows";
import { withSystemScopeInTransaction } from "./scope";

/**
 * The Next build holds two copies of drizzle's classes, so a transaction made
 * by one copy is no instance of the other's PgTransaction. Here the second
 * copy is drizzle-orm hard-linked under another path (Node loads a module once
 * per path), driving a real PGlite transaction.
 */
const root = mkdtempSync(path.join(tmpdir(), "shipshape-drizzle-copy-"));
afterAll(() => rmSync(root, { recursive: true, force: true }));

async function secondDrizzle(): Promise<{ drizzle: (options: { client: PGlite }) => Db; PgTransaction: unknown }> {
  const modules = path.join(root, "node_modules");
  mkdirSync(path.join(modules, "@electric-sql"), { recursive: true });
  const [source, target] = [realpathSync("node_modules/drizzle-orm"), path.join(modules, "drizzle-orm")];
  // Hard links are instant; another filesystem needs a real copy (17 MB).
  try {
    execFileSync("cp", ["-al", source, target], { stdio: "ignore" });
  } catch {
    rmSync(target, { recursive: true, force: true });
    execFileSync("cp", ["-a", source, target]);
  }
  symlinkSync(realpathSync("node_modules/@electric-sql/pglite"), path.join(modules, "@electric-sql", "pglite"));
  const load = (entry: string) => import(pathToFileURL(path.join(modules, "drizzle-orm", entry)).href);
  const [{ drizzle }, pgCore] = await Promise.all([load("pglite/index.js"), load("pg-core/index.js")]);
  return { drizzle, PgTransaction: pgCore.PgTransaction };
}

describe("withSystemScopeInTransaction with a second copy of drizzle", () => {
  it("takes a transaction of the other copy's classes, which instanceof does not recognise", async () => {
    const copy = await secondDrizzle();
    expect(copy.PgTransaction).not.toBe(PgTransaction);
    const client = await PGlite.create("memory://");
    try {
      const db = copy.drizzle({ client });
      const seen = await db.transaction(async (tx) => {
        expect(tx instanceof PgTransaction).toBe(false);
        return withSystemScopeInTransaction(tx as unknown as Db, "operator", async () => {
          const [row] = await queryRows<{ system: string }>(tx as unknown as Db, sql`select current_setting('app.system_scope', true) as system`);
          return row?.system;
        });
      });
      expect(seen).toBe("operator");
    } finally {
      await client.close();
    }
  });
});
