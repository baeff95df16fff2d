import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Db } from "@/db/client";
import { analysisStatusRequest } from "@/lib/api/analysis-status";
import { analyzeRequest } from "@/lib/api/analyze";
import { withApiKey } from "@/lib/api/handler";
import { analyzeForm, analyzeRequest as request, createTestOrganization, invoicePages, makePdf, type TestOrganization } from "../support/api-fixtures";
import { testDatabases } from "../support/databases";

/**
 * The asynchronous API beside the synchronous one: `Prefer: respond-async`
 * answers 202 with the analysis's Location; GET /v1/analyses/{id} gives its
 * status and, when done, exactly the array the synchronous call returns.
 * Idempotency-Key replays; a part declared as another format than its bytes is 415.
 */
function statusOf(key: string, id: string, db: Db): Promise<Response> {
  const handle = withApiKey(analysisStatusRequest(id), { openDb: async () => db });
  return handle(new Request(`http://api.test/v1/analyses/${id}`, { headers: { "x-api-key": key } }));
}

async function pollUntilFinished(key: string, id: string, db: Db): Promise<{ status: string; result?: unknown; detail?: string }> {
  for (;;) {
    const response = await statusOf(key, id, db);
    expect(response.status).toBe(200);
    const body = (await response.json()) as { id: string; status: string; result?: unknown };
    expect(body.id).toBe(id);
    if (body.status === "done" || body.status === "failed") return body;
    expect(response.headers.get("retry-after")).toBe("1");
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

describe.each(testDatabases())("asynchronous analysis on $name", (database) => {
  let db: Db;
  let org: TestOrganization;
  let other: TestOrganization;
  let handle: (request: Request) => Promise<Response>;
  let pdf: Uint8Array;

  beforeAll(async () => {
    db = await database.open();
    [org, other] = [await createTestOrganization(db), await createTestOrganization(db)];
    handle = withApiKey(analyzeRequest, { openDb: async () => db });
    pdf = await makePdf(invoicePages());
  });
  afterAll(async () => {
    if (db) await database.close(db);
  });

  it("202 with Location, then the same array as the synchronous call; another organization gets 404", { timeout: 180_000 }, async () => {
    const accepted = await handle(request(analyzeForm({ file: { bytes: pdf, name: "invoice.pdf" } }), { key: org.production.key, headers: { prefer: "respond-async" } }));
    expect(accepted.status).toBe(202);
    const id = accepted.headers.get("x-analysis-id")!;
    expect(accepted.headers.get("location")).toBe(`/v1/analyses/${id}`);
    expect(await accepted.json()).toEqual({ id, status: "queued" });

    const finished = await pollUntilFinished(org.production.key, id, db);
    const sync = await handle(request(analyzeForm({ file: { bytes: pdf, name: "invoice.pdf" } }), { key: org.production.key }));
    expect(sync.status).toBe(200);
    expect(finished).toEqual({ id, status: "done", result: await sync.json() });

    const theirs = await statusOf(other.production.key, id, db);
    const none = await statusOf(other.production.key, "ana_0000000000000000000000", db);
    expect(theirs.status).toBe(404);
    expect(await theirs.json()).toEqual({ detail: `No analysis ${id} was found for this API key's organization.` });
    expect(none.status).toBe(404);
    expect(await none.json()).toEqual({ detail: "No analysis ana_0000000000000000000000 was found for this API key's organization." });
  });

  it("Idempotency-Key: the same request gets the same analysis; another request with the key is 422", { timeout: 180_000 }, async () => {
    const headers = { "idempotency-key": `invoice-${Math.random()}` };
    const send = (name: string) => handle(request(analyzeForm({ file: { bytes: pdf, name } }), { key: org.production.key, headers }));
    const [first, replay] = await Promise.all([send("invoice.pdf"), send("invoice.pdf")]);
    expect([first.status, replay.status]).toEqual([200, 200]);
    expect(replay.headers.get("x-analysis-id")).toBe(first.headers.get("x-analysis-id"));
    expect(await replay.json()).toEqual(await first.json());

    const changed = await send("another-name.pdf");
    expect(changed.status).toBe(422);
    expect(await changed.json()).toEqual({
      detail: `The Idempotency-Key "${headers["idempotency-key"]}" was already used for a different request in the last 24 hours; use a new key for a new request.`,
    });
    const malformed = await handle(request(analyzeForm({ file: { bytes: pdf } }), { key: org.production.key, headers: { "idempotency-key": "with space" } }));
    expect(malformed.status).toBe(400);
  });

  it("415: a part declared application/pdf whose bytes are PNG", async () => {
    const png = Buffer.from("89504e470d0a1a0a0000000d49484452000000010000000108060000001f15c4890000000d4944415478da63f8ffff3f0005fe02fea73581e40000000049454e44ae426082", "hex");
    const response = await handle(request(analyzeForm({ file: { bytes: png, name: "scan.pdf", type: "application/pdf" } }), { key: org.production.key }));
    expect(response.status).toBe(415);
    expect(await response.json()).toEqual({ detail: "The file is sent as application/pdf but its bytes are PNG; send the document with its real type." });
  });
});
