import { randomBytes } from "node:crypto";
import { createServer, type IncomingMessage, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Db } from "@/db/client";
import { authenticateCredentials, type LoginThrottlePolicy } from "@/lib/auth/authenticate";
import { CLIENT_ADDRESS_HEADER, clientIpOf, installClientAddressHook, parseTrustedProxies, resolveClientAddress } from "@/lib/auth/client-ip";
import { testDatabases } from "@/test/support/databases";

/** A real Node http server whose handler sees only the headers, as a Next route handler does. */
async function listen(handle: (request: IncomingMessage) => Promise<unknown>): Promise<{ server: Server; origin: string }> {
  const server = createServer(async (request, response) => {
    response.setHeader("content-type", "application/json");
    response.end(JSON.stringify(await handle(request)));
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return { server, origin: `http://127.0.0.1:${(server.address() as AddressInfo).port}` };
}

const forgedAddress = () => `203.0.113.${randomBytes(1)[0]}`;

describe("the client address", () => {
  beforeAll(() => installClientAddressHook(parseTrustedProxies("")));

  it("is the socket's, whatever X-Forwarded-For or our own header the client forges", async () => {
    const { server, origin } = await listen(async (request) => ({ ip: clientIpOf(request.headers) }));
    try {
      for (const headers of <Array<Record<string, string>>>[
        { "x-forwarded-for": "6.6.6.6" },
        { "x-forwarded-for": "6.6.6.6, 7.7.7.7" },
        { [CLIENT_ADDRESS_HEADER]: "6.6.6.6" },
        {},
      ]) {
        const response = await fetch(origin, { headers });
        expect(await response.json()).toEqual({ ip: "127.0.0.1" });
      }
    } finally {
      server.close();
    }
  });

  it("believes forwarded hops only as far back as TRUSTED_PROXIES vouches", () => {
    const trusted = parseTrustedProxies("127.0.0.1, 10.0.0.0/8");
    // No proxy trusted: the peer.
    expect(resolveClientAddress("127.0.0.1", "6.6.6.6", [])).toBe("127.0.0.1");
    // A trusted proxy: the entry it appended.
    expect(resolveClientAddress("127.0.0.1", "6.6.6.6, 198.51.100.7", trusted)).toBe("198.51.100.7");
    // Two trusted hops: the client is the entry before both.
    expect(resolveClientAddress("::ffff:127.0.0.1", "6.6.6.6, 198.51.100.7, 10.1.2.3", trusted)).toBe("198.51.100.7");
    // An untrusted peer's header is ignored entirely.
    expect(resolveClientAddress("198.51.100.9", "10.1.2.3", trusted)).toBe("198.51.100.9");
    // A trusted proxy that wrote nothing usable: the proxy itself, never a guess.
    expect(resolveClientAddress("127.0.0.1", "not-an-address", trusted)).toBe("127.0.0.1");
    expect(resolveClientAddress("127.0.0.1", undefined, trusted)).toBe("127.0.0.1");
    expect(resolveClientAddress(undefined, "6.6.6.6", trusted)).toBe("unknown");
  });

  it("refuses a TRUSTED_PROXIES entry that is not an address or range", () => {
    expect(() => parseTrustedProxies("10.0.0.0/8, proxy.internal")).toThrow('TRUSTED_PROXIES: "proxy.internal" is not an address or CIDR range');
  });

  it("is unknown, never a client-chosen value, when no hook resolved it", () => {
    expect(clientIpOf(new Headers({ "x-forwarded-for": "6.6.6.6" }))).toBe("unknown");
    expect(clientIpOf({ [CLIENT_ADDRESS_HEADER]: "not an address" })).toBe("unknown");
  });
});

describe.each(testDatabases())("sign-in behind a real socket on $name", (database) => {
  let db: Db;
  beforeAll(async () => {
    installClientAddressHook(parseTrustedProxies(""));
    db = await database.open();
  });
  afterAll(() => database.close(db));

  it("throttles one address spraying accounts even when every attempt forges a new X-Forwarded-For", async () => {
    const policy: LoginThrottlePolicy = { accountLimit: 100, ipLimit: 3, accountWideLimit: 100, windowSeconds: 60 };
    const { server, origin } = await listen(async (request) => {
      const email = String(request.headers["x-email"]);
      return authenticateCredentials(db, { email, password: "x".repeat(12), ip: clientIpOf(request.headers) }, policy);
    });
    try {
      const run = randomBytes(4).toString("hex");
      const results = [];
      for (let i = 0; i < 6; i++) {
        const response = await fetch(origin, { headers: { "x-forwarded-for": forgedAddress(), "x-email": `spray-${run}-${i}@example.test` } });
        results.push(await response.json());
      }
      // Whatever earlier runs left in the loopback address's bucket, at most ipLimit attempts pass.
      expect(results.slice(policy.ipLimit)).toEqual(Array(6 - policy.ipLimit).fill(expect.objectContaining({ ok: false, reason: "throttled" })));
    } finally {
      server.close();
    }
  });
});
