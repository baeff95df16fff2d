import { createHmac } from "node:crypto";
import { createServer, type IncomingHttpHeaders, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import type { Db } from "@/db/client";
import { listWebhookAttempts } from "@/db/queries/webhooks";
import { analysisStatusRequest } from "@/lib/api/analysis-status";
import { analyzeRequest } from "@/lib/api/analyze";
import { withApiKey } from "@/lib/api/handler";
import { setUrlFetchOverridesForTests } from "@/lib/api/url-fetch";
import { resetEnvForTests } from "@/lib/env";
import { createApiKey, OPERATOR } from "@/lib/services";
import { rotateWebhookSecret } from "@/lib/services/rotate-webhook-secret";
import { analyzeForm, analyzeRequest as request, invoicePages, makePdf } from "../support/api-fixtures";
import { seedOrganization, testDatabases } from "../support/databases";

/**
 * The callback_url webhook: when an analysis ends, its getAnalysis body is
 * POSTed to a real loopback receiver (the guarded fetcher's one trusted test
 * origin), signed with the organization's secret; a 500 is retried, a 2XX
 * ends it, and every attempt is recorded. Without the test origin the same
 * loopback address is refused, as any non-public one.
 */
interface Received {
  headers: IncomingHttpHeaders;
  body: string;
}

function startReceiver(statuses: number[]): Promise<{ origin: string; received: Received[]; server: Server }> {
  const received: Received[] = [];
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (chunk: Buffer) => chunks.push(chunk));
    req.on("end", () => {
      received.push({ headers: req.headers, body: Buffer.concat(chunks).toString("utf8") });
      res.writeHead(statuses[received.length - 1] ?? 200).end();
    });
  });
  return new Promise((resolve) =>
    server.listen(0, "127.0.0.1", () => resolve({ origin: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, received, server })),
  );
}

async function waitFor<T>(probe: () => Promise<T | undefined>, timeoutMs: number): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await probe();
    if (value !== undefined) return value;
    if (Date.now() > deadline) throw new Error("timed out waiting");
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

const PEPPER = "a-pepper-of-at-least-thirty-two-characters";

describe.each(testDatabases())("callback_url webhook on $name", (database) => {
  let db: Db;
  let organizationId: string;
  let adminId: string;
  let apiKey: string;
  let handle: (request: Request) => Promise<Response>;
  let pdf: Uint8Array;
  let receiver: Awaited<ReturnType<typeof startReceiver>>;

  beforeAll(async () => {
    vi.stubEnv("WEBHOOK_SECRET_PEPPER", PEPPER);
    // Long enough to see the delivery waiting for its retry (3 to 6 s, backoff included).
    vi.stubEnv("WEBHOOK_RETRY_DELAY_SECONDS", "3");
    resetEnvForTests();
    db = await database.open();
    const admin = await seedOrganization(db, { prefix: "webhook" });
    organizationId = admin.organization.id;
    adminId = admin.user.id;
    apiKey = (await createApiKey(db, { createdBy: OPERATOR, organizationId, kind: "production" })).key;
    handle = withApiKey(analyzeRequest, { openDb: async () => db });
    pdf = await makePdf(invoicePages());
    // Answers 500 first, then 200.
    receiver = await startReceiver([500, 200]);
    setUrlFetchOverridesForTests({ trustedOrigin: receiver.origin });
  });
  afterAll(async () => {
    setUrlFetchOverridesForTests({});
    receiver?.server.close();
    if (db) await database.close(db);
    vi.unstubAllEnvs();
    resetEnvForTests();
  });

  const send = (callbackUrl: string) =>
    handle(request(formWithCallback(pdf, callbackUrl), { key: apiKey, headers: { prefer: "respond-async" } }));
  const getAnalysis = async (id: string) => {
    const response = await withApiKey(analysisStatusRequest(id), { openDb: async () => db })(
      new Request(`http://api.test/v1/analyses/${id}`, { headers: { "x-api-key": apiKey } }),
    );
    return (await response.json()) as Record<string, unknown> & { callback?: Record<string, unknown> };
  };

  it("refuses a callback_url before the organization has a secret, and one that is not http(s) on 80/443", async () => {
    const none = await send(`${receiver.origin}/hook`);
    expect(none.status).toBe(400);
    expect(await none.json()).toEqual({
      detail: "A callback_url needs the organization's webhook secret to sign with: an admin creates it in the web app (Admin → Webhooks).",
    });
    await rotateWebhookSecret(db, { organizationId, rotatedBy: adminId });
    const scheme = await send("ftp://erp.example.com/hook");
    expect(scheme.status).toBe(400);
    expect(await scheme.json()).toEqual({ detail: "The callback_url must use http or https, not ftp." });
  });

  it("posts the outcome once, signed, after retrying a 500; every attempt is recorded", { timeout: 120_000 }, async () => {
    const { secret } = await rotateWebhookSecret(db, { organizationId, rotatedBy: adminId });
    const accepted = await send(`${receiver.origin}/hook?order=42`);
    expect(accepted.status).toBe(202);
    const id = accepted.headers.get("x-analysis-id")!;

    const callbackUrl = `${receiver.origin}/hook?order=42`;
    // getAnalysis reports the delivery while it waits for its retry after the 500.
    const waiting = await waitFor(async () => {
      const { callback } = await getAnalysis(id);
      return callback?.status === "retrying" ? callback : undefined;
    }, 60_000);
    expect(waiting).toMatchObject({ url: callbackUrl, attempts: 1, last_status_code: 500, last_error: "The receiver answered 500." });
    expect(Date.parse(String(waiting.next_attempt_at))).toBeGreaterThan(Date.parse(String(waiting.last_attempt_at)));

    await waitFor(async () => (receiver.received.length >= 2 ? true : undefined), 60_000);
    // Nothing more arrives once the receiver said 200.
    await new Promise((resolve) => setTimeout(resolve, 3_000));
    expect(receiver.received).toHaveLength(2);

    const { callback, ...expected } = await getAnalysis(id);
    expect(expected).toMatchObject({ id, status: "done" });
    expect(callback).toMatchObject({ url: callbackUrl, status: "delivered", attempts: 2, last_status_code: 200, last_error: null, next_attempt_at: null });
    for (const delivery of receiver.received) {
      expect(JSON.parse(delivery.body)).toEqual(expected);
      expect(delivery.headers["content-type"]).toBe("application/json");
      const match = /^t=(\d+),v1=([0-9a-f]{64})$/.exec(String(delivery.headers["shipshape-signature"]));
      expect(match).not.toBeNull();
      const [, t, v1] = match!;
      expect(Math.abs(Number(t) - Date.now() / 1000)).toBeLessThan(120);
      expect(v1).toBe(createHmac("sha256", secret).update(`${t}.${delivery.body}`).digest("hex"));
    }

    const attempts = await listWebhookAttempts(db, { organizationId, analysisId: id });
    expect(attempts.map((a) => [a.attempt, a.statusCode, a.error])).toEqual([
      [1, 500, "The receiver answered 500."],
      [2, 200, null],
    ]);
  });

  it("never posts to a private address: the attempt is recorded as refused and not retried", { timeout: 120_000 }, async () => {
    await rotateWebhookSecret(db, { organizationId, rotatedBy: adminId });
    const accepted = await send("http://10.0.0.1/hook");
    expect(accepted.status).toBe(202);
    const id = accepted.headers.get("x-analysis-id")!;
    const attempts = await waitFor(async () => {
      const rows = await listWebhookAttempts(db, { organizationId, analysisId: id });
      return rows.length > 0 ? rows : undefined;
    }, 60_000);
    await new Promise((resolve) => setTimeout(resolve, 3_000));
    expect((await listWebhookAttempts(db, { organizationId, analysisId: id })).map((a) => [a.attempt, a.statusCode, a.error])).toEqual([
      [1, null, "The url's host 10.0.0.1 is not a public internet address."],
    ]);
    expect(attempts[0]!.statusCode).toBeNull();
    expect((await getAnalysis(id)).callback).toEqual({
      url: "http://10.0.0.1/hook",
      status: "failed",
      attempts: 1,
      last_status_code: null,
      last_error: "The url's host 10.0.0.1 is not a public internet address.",
      last_attempt_at: attempts[0]!.createdAt.toISOString(),
      next_attempt_at: null,
    });
  });
});

function formWithCallback(pdf: Uint8Array, callbackUrl: string): FormData {
  const form = analyzeForm({ file: { bytes: pdf, name: "invoice.pdf" } });
  form.set("callback_url", callbackUrl);
  return form;
}
