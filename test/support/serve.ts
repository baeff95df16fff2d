/**
 * Serves the real analyze and compare route modules over plain Node http, so tests and the
 * benchmark can run the handler as separate OS processes without a Next
 * build. Run: `node --import tsx --conditions=react-server test/support/serve.ts`
 * with PORT (0 = any free port) and the app's usual environment; it prints
 * `{"port":N}` on one stdout line once listening.
 */
import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import { GET as getAnalysis } from "@/app/v1/analyses/[id]/route";
import { POST as analyze } from "@/app/v1/documents/analyze/route";
import { POST as compare } from "@/app/v1/documents/compare/route";
import { warmUpAnalyzeRoute } from "@/lib/api/warm-up";
import { startServerWorker, stopServerWorker } from "@/lib/jobs/server-worker";

const POST_ROUTES: Record<string, (request: Request) => Promise<Response>> = { "/v1/documents/analyze": analyze, "/v1/documents/compare": compare };
/** GET /v1/analyses/{id}, for polling an asynchronous analysis. */
const ANALYSIS_PATH = /^\/v1\/analyses\/([^/]+)$/;

/**
 * The request body as a web stream that reads from the socket only when the
 * handler pulls (as Next does), so an unread body stays in the kernel instead
 * of piling up in memory, and a body never pulled is drained by Node itself.
 */
function bodyOf(req: IncomingMessage): ReadableStream<Uint8Array> {
  let chunks: AsyncIterator<Buffer> | undefined;
  return new ReadableStream<Uint8Array>(
    {
      async pull(controller) {
        chunks ??= req[Symbol.asyncIterator]();
        const next = await chunks.next();
        if (next.done) controller.close();
        else controller.enqueue(new Uint8Array(next.value.buffer, next.value.byteOffset, next.value.byteLength));
      },
    },
    { highWaterMark: 0 },
  );
}

function headersOf(req: IncomingMessage): Headers {
  const headers = new Headers();
  for (const [name, value] of Object.entries(req.headers)) {
    if (value !== undefined) headers.set(name, Array.isArray(value) ? value.join(", ") : value);
  }
  return headers;
}

/** How long a connection whose body was refused unread keeps discarding what the client still sends before it is closed. */
const LINGER_MS = 2000;

async function send(res: ServerResponse, response: Response, req: IncomingMessage): Promise<void> {
  res.writeHead(response.status, Object.fromEntries(response.headers));
  if (response.body) for await (const chunk of response.body) res.write(chunk);
  res.end();
  if (!req.complete) lingerThenClose(req);
}

/**
 * A refused body was left unread. Closing at once would reset the connection
 * under the client's pending writes, and a client whose write fails first
 * never reads the answer; so discard what it still sends for a moment (as
 * nginx's lingering close does), then close.
 */
function lingerThenClose(req: IncomingMessage): void {
  req.resume();
  setTimeout(() => req.socket.destroy(), LINGER_MS).unref();
}

const server = createServer(async (req, res) => {
  const url = new URL(req.url ?? "/", `http://${req.headers.host ?? "localhost"}`);
  const analysisId = ANALYSIS_PATH.exec(url.pathname)?.[1];
  if (req.method === "GET" && analysisId) {
    const request = new Request(url, { headers: headersOf(req) });
    await send(res, await getAnalysis(request, { params: Promise.resolve({ id: decodeURIComponent(analysisId) }) }), req);
    return;
  }
  const route = req.method === "POST" ? POST_ROUTES[url.pathname] : undefined;
  if (!route) {
    res.writeHead(404, { "content-type": "application/json" }).end(JSON.stringify({ detail: "Not found." }));
    return;
  }
  const request = new Request(url, { method: "POST", headers: headersOf(req), body: bodyOf(req), duplex: "half" } as RequestInit);
  await send(res, await route(request), req);
});

// As Next's instrumentation does: database, readers, in-process worker and the warmed route ready before the port is announced.
await startServerWorker({ warmUp: warmUpAnalyzeRoute });
server.listen(Number(process.env.PORT ?? 0), "127.0.0.1", () => {
  const address = server.address();
  if (address && typeof address === "object") console.log(JSON.stringify({ port: address.port }));
});
process.on("SIGTERM", () => {
  server.close(() => void stopServerWorker().finally(() => process.exit(0)));
  server.closeAllConnections();
});
