/**
 * Fresh PGlite databases as copies of one migrated data directory. A new in-memory PGlite runs
 * initdb inside WebAssembly before its first query: 4.3-8.6 s of processor time each on a 2-core
 * machine, paid by every PGlite database a suite opened, and most of the suite's processor time. The
 * global setup creates and migrates one data directory per run; each database is a copy of it
 * (about 1 s of processor time to copy, 0.3 s to open), as fresh and independent as a new one.
 */
import { cpSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { closeDb, openDb } from "@/db/client";

/** Where the global setup tells test workers the run's template lives (they inherit its environment). */
const TEMPLATE_ENV = "TEST_PGLITE_TEMPLATE";

/** Creates and migrates the run's template directory; the returned function removes it and every copy. */
export async function createPgliteTemplate(): Promise<() => void> {
  const root = mkdtempSync(path.join(tmpdir(), "shipshape-test-pglite-"));
  const template = path.join(root, "template");
  await closeDb(await openDb({ dataDir: template }));
  process.env[TEMPLATE_ENV] = template;
  return () => rmSync(root, { recursive: true, force: true });
}

/** A new PGlite data directory holding the migrated, empty schema, beside the template (removed with it). */
export function freshPgliteDir(): string {
  const template = process.env[TEMPLATE_ENV];
  if (!template) throw new Error(`${TEMPLATE_ENV} is unset: the Vitest global setup (test/support/global-setup.ts) creates it`);
  const copy = mkdtempSync(path.join(path.dirname(template), "db-"));
  cpSync(template, copy, { recursive: true });
  return copy;
}

/** Removes a directory freshPgliteDir made, once its database is closed. */
export function removePgliteDir(dir: string): void {
  rmSync(dir, { recursive: true, force: true });
}
