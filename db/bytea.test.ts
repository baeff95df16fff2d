import { randomBytes } from "node:crypto";
import { sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { testDatabases } from "@/test/support/databases";
import type { Db } from "./client";
import { queryRows } from "./queries/rows";

/** Sizes around Node's buffer pool (4 KiB), an invoice, and a scanned page. */
const SIZES = [0, 1, 4095, 4096, 14_000, 2 ** 20];
/** What storing and reading back 8 MB may cost this process on PGlite (PGlite's own JavaScript codec: over 2 s). */
const LARGE_ROUND_TRIP_CPU_MS = 800;

function cpuMs(): number {
  const used = process.cpuUsage();
  return (used.user + used.system) / 1000;
}

describe.each(testDatabases())("bytea on $name", (database) => {
  let db: Db;
  beforeAll(async () => {
    db = await database.open();
  });
  afterAll(() => database.close(db));

  it.each(SIZES)("a value of %i bytes comes back byte for byte, in memory of its own", async (size) => {
    const bytes = new Uint8Array(randomBytes(size));
    const [row] = await queryRows<{ value: Uint8Array; length: number }>(db, sql`SELECT ${bytes}::bytea AS value, length(${bytes}::bytea) AS length`);
    expect(Number(row!.length)).toBe(size);
    expect(Buffer.compare(Buffer.from(row!.value), Buffer.from(bytes))).toBe(0);
    if (database.name === "pglite") expect(row!.value.byteLength === row!.value.buffer.byteLength).toBe(true);
  });

  it.runIf(database.name === "pglite")("stores and reads 8 MB without holding the thread for seconds", async () => {
    const bytes = new Uint8Array(randomBytes(8 * 2 ** 20));
    const started = cpuMs();
    const [row] = await queryRows<{ value: Uint8Array }>(db, sql`SELECT ${bytes}::bytea AS value`);
    expect(row!.value.byteLength).toBe(bytes.byteLength);
    expect(cpuMs() - started).toBeLessThan(LARGE_ROUND_TRIP_CPU_MS);
  });
});
