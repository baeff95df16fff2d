import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import type { Db } from "@/db/client";
import { analyzeRequest } from "@/lib/api/analyze";
import { withApiKey } from "@/lib/api/handler";
import { uploadBytesInFlight } from "@/lib/api/upload-budget";
import { setUrlFetchOverridesForTests } from "@/lib/api/url-fetch";
import { resetEnvForTests } from "@/lib/env";
import { analyzeForm, createTestOrganization, invoicePages, makePdf } from "../support/api-fixtures";
import { testDatabases } from "../support/databases";

/**
 * A document fetched for a `url` input is held in memory as an upload is, so
 * its bytes count against the same budget of upload bytes in flight: while
 * one large document is being fetched, another large one (fetched or
 * uploaded) is refused with 503 and Retry-After, and its bytes are free again
 * once it is stored. The budget is per process and touches no database: PGlite.
 */
const MB = 2 ** 20;
const MAX_UPLOAD_MB = 4;
const BUDGET_MB = 6;
const ANALYZE_URL = "http://api.test/v1/documents/analyze";
const REFUSED = { detail: "The server is receiving as many uploads as it can hold at once; retry after 2 s." };

/** Serves `document` at /large.pdf with its length declared; the first answer stalls after its head until release(). */
function startStallingOrigin(document: Uint8Array): Promise<{ origin: string; server: Server; release: () => void }> {
  let stalled = false;
  let release = () => {};
  const held = new Promise<void>((resolve) => (release = resolve));
  const server = createServer(async (_req, res) => {
    res.writeHead(200, { "content-type": "application/pdf", "content-length": String(document.length) });
    if (!stalled) {
      stalled = true;
      res.write(document.subarray(0, 64 * 1024));
      await held;
      res.end(document.subarray(64 * 1024));
    } else res.end(document);
  });
  return new Promise((resolve) =>
    server.listen(0, "127.0.0.1", () => resolve({ origin: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, server, release: () => release() })),
  );
}

describe("bytes fetched for a url count against the upload budget", () => {
  const pglite = testDatabases().find((d) => d.name === "pglite")!;
  let db: Db;
  let key: string;
  let large: Uint8Array;
  let origin: Awaited<ReturnType<typeof startStallingOrigin>>;
  let handle: (request: Request) => Promise<Response>;

  beforeAll(async () => {
    vi.stubEnv("MAX_UPLOAD_MB", String(MAX_UPLOAD_MB));
    vi.stubEnv("UPLOAD_BYTES_IN_FLIGHT_MB", String(BUDGET_MB));
    resetEnvForTests();
    db = await pglite.open();
    key = (await createTestOrganization(db)).production.key;
    handle = withApiKey(analyzeRequest, { openDb: async () => db });
    const pdf = await makePdf(invoicePages());
    // A real PDF padded to 3.5 MB: two of them do not fit the 6 MB budget, one does.
    large = new Uint8Array(Buffer.concat([Buffer.from(pdf), Buffer.alloc(3.5 * MB - pdf.length, 0x20)]));
    origin = await startStallingOrigin(large);
    setUrlFetchOverridesForTests({ trustedOrigin: origin.origin });
  });
  afterAll(async () => {
    setUrlFetchOverridesForTests({});
    origin?.release();
    origin?.server.closeAllConnections();
    origin?.server.close();
    if (db) await pglite.close(db);
    vi.unstubAllEnvs();
    resetEnvForTests();
  });

  /** The form with its Content-Length declared, as clients send it: the form itself then reserves only its own few bytes. */
  const send = async (form: FormData) => {
    const encoded = new Response(form);
    const body = new Uint8Array(await encoded.arrayBuffer());
    const headers = { "x-api-key": key, "content-type": encoded.headers.get("content-type")!, "content-length": String(body.length) };
    return handle(new Request(ANALYZE_URL, { method: "POST", headers, body }));
  };
  const fetchLarge = () => send(analyzeForm({ url: `${origin.origin}/large.pdf` }));

  it("holds a fetched document's declared length while it arrives, refuses what does not fit beside it, and frees it after", { timeout: 180_000 }, async () => {
    const before = uploadBytesInFlight();
    const first = fetchLarge();
    // Its answer's head has arrived: the document's declared length is held.
    const deadline = Date.now() + 60_000;
    while (uploadBytesInFlight() < before + large.length) {
      if (Date.now() > deadline) throw new Error(`the fetched document's bytes were never held (${uploadBytesInFlight()} in flight)`);
      await new Promise((resolve) => setTimeout(resolve, 20));
    }

    const refusedUrl = await fetchLarge();
    expect(refusedUrl.status).toBe(503);
    expect(refusedUrl.headers.get("retry-after")).toBe("2");
    expect(await refusedUrl.json()).toEqual(REFUSED);
    const refusedUpload = await send(analyzeForm({ file: { bytes: large, name: "large.pdf" } }));
    expect(refusedUpload.status).toBe(503);
    expect(await refusedUpload.json()).toEqual(REFUSED);

    origin.release();
    expect((await first).status).toBe(200);
    expect(uploadBytesInFlight()).toBe(before);
    // Free again: the next large document is fetched.
    expect((await fetchLarge()).status).toBe(200);
  });
});
