import { randomBytes } from "node:crypto";
import { sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { testDatabases } from "@/test/support/databases";
import type { Db } from "./client";
import { queryRows } from "./queries/rows";

/** Sizes around Node's buffer pool (4 KiB), an invoice, and a scanned page. */
const SIZES = [0, 1, 4095, 4096, 14_000, 2 ** 20];

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

  // What the codec costs (PGlite's own JavaScript one: over 2 s of the server's thread for this) is
  // measured by bench/upload-memory.ts and bench/endpoint-statements.ts, not asserted here.
  it("an 8 MB value (a scanned document) comes back byte for byte", async () => {
    const bytes = new Uint8Array(randomBytes(8 * 2 ** 20));
    const [row] = await queryRows<{ value: Uint8Array }>(db, sql`SELECT ${bytes}::bytea AS value`);
    expect(Buffer.from(row!.value).equals(Buffer.from(bytes))).toBe(true);
  });
});
