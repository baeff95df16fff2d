import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Db } from "@/db/client";
import { findSetFile } from "@/db/queries/sets-files";
import { ProcessPool } from "@/lib/analysis/isolate/pool";
import { createUser } from "@/lib/services";
import { addFile } from "@/lib/sets/add-file";
import { analyzeFile } from "@/lib/sets/analyze-file";
import { createSet } from "@/lib/sets/create-set";
import { databaseFileStore } from "@/lib/sets/storage";
import { makePdfBomb } from "@/test/fixtures/formats/pdf-bomb";
import { invoicePages, makePdf } from "../support/api-fixtures";
import { testDatabases } from "../support/databases";

/**
 * The web app's background analysis reads files in the isolated reader pool
 * too: a file that keeps the parser busy past the time cap ends `failed` with
 * the reason in words, and the set's next file is read normally.
 */
const TIMEOUT_MS = 3_000;
const INGEST_MODULE = `${process.cwd()}/lib/analysis/ingest/index.ts`;

let bomb: Uint8Array;
let invoice: Uint8Array;
let pool: ProcessPool;

beforeAll(async () => {
  [bomb, invoice] = await Promise.all([makePdfBomb(1024), makePdf(invoicePages())]);
  // The server's pool with a short time cap (and memory to spare, so time is what stops the bomb).
  pool = new ProcessPool({ size: 1, jobTimeoutMs: TIMEOUT_MS, maxRssBytes: 8 * 2 ** 30, preload: [INGEST_MODULE] });
});
afterAll(() => pool?.close());

describe.each(testDatabases())("a set file read in the isolated pool, on $name", (database) => {
  let db: Db;
  let scope: { organizationId: string; setId: string; userId: string };

  beforeAll(async () => {
    db = await database.open();
    const created = await createUser(db, {
      email: `isolation-${crypto.randomUUID().slice(0, 8)}@example.test`,
      password: "correct-horse-battery-staple",
      orgSlug: `isolation-${crypto.randomUUID().slice(0, 8)}`,
      role: "admin",
    });
    const set = await createSet(db, { organizationId: created.organization.id, userId: created.user.id, name: "Isolation" });
    scope = { organizationId: created.organization.id, setId: set.id, userId: created.user.id };
  });
  afterAll(async () => db && database.close(db));

  async function analyze(fileName: string, bytes: Uint8Array) {
    const file = await addFile(db, { organizationId: scope.organizationId, setId: scope.setId, fileName, bytes });
    await analyzeFile(db, { ...scope, fileId: file.id }, databaseFileStore(db), pool);
    return findSetFile(db, { organizationId: scope.organizationId, setId: scope.setId, fileId: file.id });
  }

  it("marks a file that outlasts the time cap failed with the reason, then reads the next file", async () => {
    const failed = await analyze("bomb.pdf", bomb);
    expect(failed).toMatchObject({ status: "failed", errorDetail: `Reading the file took longer than ${TIMEOUT_MS / 1000} s; it was stopped.` });
    const done = await analyze("invoice.pdf", invoice);
    expect(done).toMatchObject({ status: "done", errorDetail: null, pageCount: 2 });
  });
});
