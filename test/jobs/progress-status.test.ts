import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Db } from "@/db/client";
import { analysisStatusRequest } from "@/lib/api/analysis-status";
import { analyzeRequest } from "@/lib/api/analyze";
import { withApiKey } from "@/lib/api/handler";
import { analyzeForm, analyzeRequest as request, createTestOrganization, type TestOrganization } from "../support/api-fixtures";
import { testDatabases } from "../support/databases";
import { makeMixedPdf } from "../fixtures/formats/scanned-pdf";
import { OCR_TEST_TIMEOUT_MS } from "../fixtures/formats/scan-fixtures";
import { INVOICE_LINES } from "../fixtures/formats/sample-text";

/**
 * The reader's real progress reaches GET /v1/analyses/{id} while a scanned
 * file is read: pages read of the file's pages, then an estimate once a page is read.
 */
type Progress = { pages_done: number; pages_total: number; seconds_left: number | null };

describe.each(testDatabases())("progress of a running analysis on $name", (database) => {
  let db: Db;
  let org: TestOrganization;
  let pdf: Uint8Array;

  beforeAll(async () => {
    db = await database.open();
    org = await createTestOrganization(db);
    pdf = await makeMixedPdf([{ digital: ["COVERING SCHEDULE", "Documents presented under credit LC58213409"] }, ...[0, 1].map(() => ({ scanned: { lines: INVOICE_LINES } }))]);
  }, OCR_TEST_TIMEOUT_MS);
  afterAll(async () => {
    if (db) await database.close(db);
  });

  it("shows pages done of pages total and, after the first scanned page, seconds left", { timeout: OCR_TEST_TIMEOUT_MS }, async () => {
    const handle = withApiKey(analyzeRequest, { openDb: async () => db });
    const accepted = await handle(request(analyzeForm({ file: { bytes: pdf, name: "scan.pdf" } }), { key: org.production.key, headers: { prefer: "respond-async" } }));
    expect(accepted.status).toBe(202);
    const id = accepted.headers.get("x-analysis-id")!;
    const status = withApiKey(analysisStatusRequest(id), { openDb: async () => db });
    const seen: Progress[] = [];
    for (;;) {
      const body = (await (await status(new Request(`http://api.test/v1/analyses/${id}`, { headers: { "x-api-key": org.production.key } }))).json()) as { status: string; progress?: Progress };
      if (body.status === "done" || body.status === "failed") {
        expect(body.status).toBe("done");
        expect(body.progress).toBeUndefined();
        break;
      }
      if (body.progress) seen.push(body.progress);
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    // The text-layer page is read at once; the estimate waits for the first scanned page.
    expect(seen[0]).toEqual({ pages_done: 1, pages_total: 3, seconds_left: null });
    const after = seen.filter((p) => p.pages_done >= 2);
    expect(after.length).toBeGreaterThan(0);
    expect(after.every((p) => p.pages_total === 3 && typeof p.seconds_left === "number")).toBe(true);
    // Pages only go forward.
    expect(seen.map((p) => p.pages_done)).toEqual([...seen.map((p) => p.pages_done)].sort((a, b) => a - b));
  });
});
