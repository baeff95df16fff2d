/**
 * Real HTTP servers on loopback for the url-input tests: a canary that counts
 * every connection it receives (it must see none), and the one trusted test
 * origin that serves documents, redirects, a gzip bomb and slow bodies.
 */
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { gzipSync } from "node:zlib";

export interface Canary {
  /** Connections received so far, across every address it listens on. */
  connections(): number;
  /** The random loopback port it also listens on (80 is the other). */
  port: number;
  close(): Promise<void>;
}

function listen(server: Server, port: number, host: string): Promise<Server> {
  return new Promise((resolve, reject) => {
    server.once("error", reject);
    server.listen(port, host, () => resolve(server));
  });
}

function close(server: Server): Promise<void> {
  server.closeAllConnections();
  return new Promise((resolve) => server.close(() => resolve()));
}

/** How long a canary waits for port 80, which another test run on the machine (CI runs two runtimes at once) may hold. */
const PORT_80_WAIT_MS = 90_000;

/**
 * Listens on port 80 of both loopback addresses, waiting while another process
 * holds either; both or neither, so two runs never each hold one and wait for the other.
 */
async function listenOnPort80(make: () => Server): Promise<Server[]> {
  const deadline = Date.now() + PORT_80_WAIT_MS;
  for (;;) {
    const held: Server[] = [];
    try {
      for (const host of ["127.0.0.1", "::1"]) held.push(await listen(make(), 80, host));
      return held;
    } catch (error) {
      await Promise.all(held.map(close));
      if ((error as NodeJS.ErrnoException).code !== "EADDRINUSE" || Date.now() > deadline) throw error;
      await new Promise((resolve) => setTimeout(resolve, 250 + Math.random() * 250));
    }
  }
}

/**
 * Listens on 127.0.0.1:80 and [::1]:80 (where a leaked request to a loopback
 * literal on the default port would land) and on one random loopback port.
 */
export async function startCanary(): Promise<Canary> {
  let count = 0;
  const make = () => {
    const server = createServer((_req, res) => res.end("canary"));
    server.on("connection", () => (count += 1));
    return server;
  };
  const servers = [...(await listenOnPort80(make)), await listen(make(), 0, "127.0.0.1")];
  const port = (servers[2]!.address() as AddressInfo).port;
  return { connections: () => count, port, close: async () => void (await Promise.all(servers.map(close))) };
}

export interface DocumentOrigin {
  /** e.g. http://127.0.0.1:41234 */
  origin: string;
  close(): Promise<void>;
}

export interface OriginContent {
  pdf: Uint8Array;
  /** Where /to-canary redirects (another loopback port). */
  canaryPort: number;
  /** Decoded size of the gzip bomb. */
  bombBytes: number;
}

/** The first bytes of any PNG file. */
const PNG_SIGNATURE = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 13]);
/** Milliseconds between the bytes of /slow. */
const DRIP_INTERVAL_MS = 200;

/** Serves the routes the url-input tests fetch. */
export async function startDocumentOrigin(content: OriginContent): Promise<DocumentOrigin> {
  const bomb = gzipSync(Buffer.concat([Buffer.from("%PDF-1.7\n"), Buffer.alloc(content.bombBytes)]));
  const server = createServer((req, res) => {
    const url = new URL(req.url ?? "/", "http://origin.test");
    const hops = /^\/hops\/(\d+)$/.exec(url.pathname);
    if (hops) {
      const left = Number(hops[1]);
      if (left === 0) return void res.writeHead(200, { "content-type": "application/pdf" }).end(content.pdf);
      return void res.writeHead(302, { location: `/hops/${left - 1}` }).end();
    }
    switch (url.pathname) {
      case "/doc.pdf":
        return void res.writeHead(200, { "content-type": "application/pdf" }).end(content.pdf);
      case "/untyped":
        return void res.writeHead(200).end(content.pdf);
      case "/to-canary":
        return void res.writeHead(302, { location: `http://127.0.0.1:${content.canaryPort}/doc.pdf` }).end();
      case "/to-loopback":
        return void res.writeHead(301, { location: "http://127.0.0.1/doc.pdf" }).end();
      case "/to-name":
        return void res.writeHead(307, { location: "http://evil.test/doc.pdf" }).end();
      case "/to-file":
        return void res.writeHead(302, { location: "file:///etc/passwd" }).end();
      case "/bomb":
        return void res.writeHead(200, { "content-type": "application/pdf", "content-encoding": "gzip" }).end(bomb);
      case "/html":
        return void res.writeHead(200, { "content-type": "text/html; charset=utf-8" }).end("<html><body>hi</body></html>");
      case "/png-as-pdf":
        return void res.writeHead(200, { "content-type": "application/pdf" }).end(PNG_SIGNATURE);
      case "/html-as-pdf":
        return void res.writeHead(200, { "content-type": "application/pdf" }).end("<html><body>not a pdf</body></html>");
      case "/slow": {
        res.writeHead(200, { "content-type": "application/pdf" });
        const timer = setInterval(() => res.write("%"), DRIP_INTERVAL_MS);
        res.on("close", () => clearInterval(timer));
        return;
      }
      default:
        return void res.writeHead(404).end("not found");
    }
  });
  await listen(server, 0, "127.0.0.1");
  return { origin: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, close: () => close(server) };
}
