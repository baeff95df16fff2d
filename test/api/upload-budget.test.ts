import { rm } from "node:fs/promises";
import { request as httpRequest, type IncomingMessage } from "node:http";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { closeDb, openDb } from "@/db/client";
import { analyzeForm, createTestOrganization, invoicePages, makePdf } from "../support/api-fixtures";
import { freshPgliteDir } from "../support/pglite-template";
import { startServerProcess, type ServerProcess } from "../support/server-process";

/**
 * The server's budget of upload bytes in flight: while one large upload is
 * being received, further large uploads are refused at once with 503 and
 * Retry-After (their bodies never read), a small request is still served, and
 * once the large upload is done its bytes are free again. Run against a
 * separate app process (the budget is per process), on embedded PGlite: the
 * budget does not touch the database.
 */
const MB = 2 ** 20;
const MAX_UPLOAD_MB = 4;
const BUDGET_MB = 6;
const BOUNDARY = "----shipshape-budget-test";
/** How long an answer may take to arrive after the server closed the connection under the client's writes. */
const ANSWER_GRACE_MS = 5000;

interface Outcome {
  status: number;
  body: string;
  retryAfter: string | undefined;
}

interface OpenUpload {
  /** Sends the rest of the body. */
  finish(): void;
  outcome: Promise<Outcome>;
}

/** A multipart upload with its Content-Length declared, of which only the head is sent until finish(). */
function openUpload(origin: string, key: string, file: Uint8Array, headBytes: number): OpenUpload {
  const body = Buffer.concat([
    Buffer.from(`--${BOUNDARY}\r\nContent-Disposition: form-data; name="file"; filename="large.pdf"\r\nContent-Type: application/pdf\r\n\r\n`),
    Buffer.from(file),
    Buffer.from(`\r\n--${BOUNDARY}--\r\n`),
  ]);
  let answered = false;
  const req = httpRequest(`${origin}/v1/documents/analyze`, {
    method: "POST",
    headers: { "x-api-key": key, "content-type": `multipart/form-data; boundary=${BOUNDARY}`, "content-length": String(body.length) },
  });
  const outcome = new Promise<Outcome>((resolve, reject) => {
    req.on("response", (res: IncomingMessage) => {
      answered = true;
      let text = "";
      res.setEncoding("utf8");
      res.on("data", (chunk: string) => (text += chunk));
      res.on("end", () => {
        resolve({ status: res.statusCode ?? 0, body: text, retryAfter: res.headers["retry-after"] as string | undefined });
        req.destroy();
      });
    });
    // A refused upload's connection may close under our writes before its answer is read.
    req.on("error", (error: NodeJS.ErrnoException) => {
      if (answered) return;
      if (error.code !== "EPIPE" && error.code !== "ECONNRESET") return reject(error);
      setTimeout(() => answered || reject(error), ANSWER_GRACE_MS);
    });
  });
  req.write(body.subarray(0, headBytes));
  return { finish: () => void req.end(body.subarray(headBytes)), outcome };
}

describe("the server's budget of upload bytes in flight", () => {
  let dataDir: string;
  let server: ServerProcess;
  let key: string;
  let small: Uint8Array;
  let large: Uint8Array;

  beforeAll(async () => {
    dataDir = freshPgliteDir();
    const db = await openDb({ dataDir });
    key = (await createTestOrganization(db)).production.key;
    await closeDb(db);
    // One reader (ANALYSIS_WORKERS): this test is not about readers, and a second one costs its start (about 2 s of processor time, loading and warming the engine).
    server = await startServerProcess({ DATABASE_URL: undefined, PGLITE_DIR: dataDir, ANALYSIS_WORKERS: "1", MAX_UPLOAD_MB: String(MAX_UPLOAD_MB), UPLOAD_BYTES_IN_FLIGHT_MB: String(BUDGET_MB) });
    small = await makePdf(invoicePages());
    // A real PDF padded to 3.5 MB: two of them do not fit the 6 MB budget, one does.
    large = new Uint8Array(Buffer.concat([Buffer.from(small), Buffer.alloc(3.5 * MB - small.length, 0x20)]));
  }, 300_000);

  afterAll(async () => {
    await server?.stop();
    if (dataDir) await rm(dataDir, { recursive: true, force: true });
  });

  const analyzeSmall = () =>
    fetch(`${server.origin}/v1/documents/analyze`, { method: "POST", headers: { "x-api-key": key }, body: analyzeForm({ file: { bytes: small, name: "invoice.pdf" } }) });

  it("refuses concurrent large uploads with 503 and Retry-After while one is received, keeps serving, and frees the bytes after", { timeout: 180_000 }, async () => {
    const first = openUpload(server.origin, key, large, 64 * 1024);
    // The first upload's head has reached the handler once a small request has come and gone after it.
    expect((await analyzeSmall()).status).toBe(200);

    const refused = await Promise.all(
      [1, 2, 3, 4].map(() => {
        const upload = openUpload(server.origin, key, large, 64 * 1024);
        upload.finish();
        return upload.outcome;
      }),
    );
    for (const outcome of refused) {
      expect(outcome.status).toBe(503);
      expect(JSON.parse(outcome.body)).toEqual({ detail: "The server is receiving as many uploads as it can hold at once; retry after 2 s." });
      expect(outcome.retryAfter).toBe("2");
    }
    // A small request still fits beside the one being received.
    expect((await analyzeSmall()).status).toBe(200);

    first.finish();
    expect((await first.outcome).status).toBe(200);
    // Its bytes are free again: the next large upload is taken.
    const next = openUpload(server.origin, key, large, 0);
    next.finish();
    expect((await next.outcome).status).toBe(200);
  });
});
