import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { closeDb, type Db } from "@/db/client";
import { analyzeRequest } from "@/lib/api/analyze";
import { withApiKey } from "@/lib/api/handler";
import { setUrlFetchOverridesForTests } from "@/lib/api/url-fetch";
import { resetEnvForTests } from "@/lib/env";
import { analysisQueue, stopAnalysisQueue } from "@/lib/jobs";
import { createApiKey, OPERATOR } from "@/lib/services";
import { rotateWebhookSecret } from "@/lib/services/rotate-webhook-secret";
import { analyzeForm, analyzeRequest as request, invoicePages, makePdf } from "../support/api-fixtures";
import { seedOrganization, type TestDatabase, testDatabases } from "../support/databases";
import { until } from "../jobs/support";

/**
 * When a webhook is sent: the process that ends a job wakes its own webhook
 * worker once the ending (which queued the delivery) commits, so a delivery
 * never waits for the worker's poll (WEBHOOK_POLLING_SECONDS); the poll still
 * finds a delivery that no worker was woken for, as one queued by another
 * process that stopped before sending it.
 */

/** Longer than any test: a delivery sent while the poll is this rare was sent because its worker was woken. */
const NEVER_POLLING_SECONDS = "600";
const PEPPER = "a-pepper-of-at-least-thirty-two-characters";

/** A loopback receiver answering 200 to every delivery; the bodies it got, parsed. */
function startReceiver(): Promise<{ origin: string; bodies: { id: string; status: string }[]; server: Server }> {
  const bodies: { id: string; status: string }[] = [];
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (chunk: Buffer) => chunks.push(chunk));
    req.on("end", () => {
      bodies.push(JSON.parse(Buffer.concat(chunks).toString("utf8")));
      res.writeHead(200).end();
    });
  });
  return new Promise((resolve) => server.listen(0, "127.0.0.1", () => resolve({ origin: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, bodies, server })));
}

/** A database with an organization that has a webhook secret and a key, a receiver, and a sender of async analyze requests with a callback_url. */
async function setUp(database: TestDatabase) {
  const db = await database.open();
  const admin = await seedOrganization(db, { prefix: "webhook-wake" });
  const organizationId = admin.organization.id;
  await rotateWebhookSecret(db, { organizationId, rotatedBy: admin.user.id });
  const apiKey = (await createApiKey(db, { createdBy: OPERATOR, organizationId, kind: "production" })).key;
  const receiver = await startReceiver();
  setUrlFetchOverridesForTests({ trustedOrigin: receiver.origin });
  const handle = withApiKey(analyzeRequest, { openDb: async () => db });
  const send = async (bytes: Uint8Array): Promise<string> => {
    const form = analyzeForm({ file: { bytes, name: "invoice.pdf" } });
    form.set("callback_url", `${receiver.origin}/hook`);
    const response = await handle(request(form, { key: apiKey, headers: { prefer: "respond-async" } }));
    expect(response.status).toBe(202);
    return response.headers.get("x-analysis-id")!;
  };
  return { db, organizationId, receiver, send };
}

describe.each(testDatabases())("a job's webhook, woken by its ending, on $name", (database) => {
  let context: Awaited<ReturnType<typeof setUp>>;

  beforeAll(async () => {
    vi.stubEnv("WEBHOOK_SECRET_PEPPER", PEPPER);
    vi.stubEnv("WEBHOOK_POLLING_SECONDS", NEVER_POLLING_SECONDS);
    resetEnvForTests();
    context = await setUp(database);
  });
  afterAll(async () => {
    setUrlFetchOverridesForTests({});
    context?.receiver.server.close();
    if (context) await database.close(context.db);
    vi.unstubAllEnvs();
    resetEnvForTests();
  });

  it("is sent for a job that ends done, and for one the engine refuses, without a poll", { timeout: 120_000 }, async () => {
    const { receiver, send } = context;
    const done = await send(await makePdf(invoicePages()));
    await until(async () => receiver.bodies.length === 1, 60_000, "the done job's delivery");
    // The engine refuses it (AnalysisError): the job ends failed, through failAnalysisJob.
    const refused = await send(Buffer.concat([Buffer.from("%PDF-1.7\n"), Buffer.from("this is not a pdf body at all ".repeat(40))]));
    await until(async () => receiver.bodies.length === 2, 60_000, "the refused job's delivery");
    expect(receiver.bodies.map((body) => [body.id, body.status])).toEqual([
      [done, "done"],
      [refused, "failed"],
    ]);
  });
});

describe.each(testDatabases().filter((database) => database.name === "postgresql"))("a delivery queued by another process, on $name", (database) => {
  let context: Awaited<ReturnType<typeof setUp>>;
  /** Another process's connection: its queue sends, and runs no worker. */
  let other: Db;

  beforeAll(async () => {
    vi.stubEnv("WEBHOOK_SECRET_PEPPER", PEPPER);
    vi.stubEnv("WEBHOOK_POLLING_SECONDS", "1");
    resetEnvForTests();
    context = await setUp(database);
    other = await database.open();
  });
  afterAll(async () => {
    setUrlFetchOverridesForTests({});
    context?.receiver.server.close();
    // Its queue is the suite's own (one name per file): stopped, not destroyed, before the suite's connection destroys it.
    if (other) await stopAnalysisQueue(other, { graceful: false });
    if (other) await closeDb(other);
    if (context) await database.close(context.db);
    vi.unstubAllEnvs();
    resetEnvForTests();
  });

  it("is found by this process's poll and sent", { timeout: 120_000 }, async () => {
    const { receiver, send, organizationId } = context;
    const jobId = await send(await makePdf(invoicePages()));
    await until(async () => receiver.bodies.length === 1, 60_000, "the job's own delivery");
    // Another delivery of the same outcome, committed on the other connection, which wakes nobody here.
    const queue = await analysisQueue(other);
    await other.transaction((tx) => queue.sendWebhook(tx, { jobId, organizationId }));
    await until(async () => receiver.bodies.length === 2, 60_000, "the other process's delivery");
    expect(receiver.bodies.map((body) => [body.id, body.status])).toEqual([
      [jobId, "done"],
      [jobId, "done"],
    ]);
  });
});
