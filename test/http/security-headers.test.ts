import { unstable_doesMiddlewareMatch, unstable_getResponseFromNextConfig } from "next/experimental/testing/server";
import { NextRequest } from "next/server";
import { afterEach, describe, expect, it, vi } from "vitest";
import nextConfig from "@/next.config";
import { config as proxyConfig, proxy } from "@/proxy";

const ORIGINAL_NEXTAUTH_URL = process.env.NEXTAUTH_URL;

afterEach(() => {
  if (ORIGINAL_NEXTAUTH_URL === undefined) delete process.env.NEXTAUTH_URL;
  else process.env.NEXTAUTH_URL = ORIGINAL_NEXTAUTH_URL;
  vi.unstubAllEnvs();
});

function nonceOf(policy: string): string {
  const nonce = /'nonce-([^']+)'/.exec(policy)?.[1];
  if (!nonce) throw new Error(`no nonce in ${policy}`);
  return nonce;
}

describe("a page's Content-Security-Policy", () => {
  it("allows scripts by this response's nonce only, never eval, and is never framed", () => {
    const policy = proxy(new NextRequest("http://localhost:3000/sets")).headers.get("content-security-policy") ?? "";
    const directives = new Map(policy.split("; ").map((d) => [d.split(" ")[0], d.split(" ").slice(1)] as const));
    expect(directives.get("script-src")).toEqual(["'self'", `'nonce-${nonceOf(policy)}'`, "'strict-dynamic'"]);
    expect(directives.get("frame-ancestors")).toEqual(["'none'"]);
    expect(directives.get("object-src")).toEqual(["'none'"]);
    expect(policy).not.toContain("unsafe-eval");
    expect(directives.get("script-src")).not.toContain("'unsafe-inline'");
  });

  it("hands Next.js the same nonce in the request, and a new one for every request", () => {
    const first = proxy(new NextRequest("http://localhost:3000/"));
    const policy = first.headers.get("content-security-policy") ?? "";
    // NextResponse.next({ request: { headers } }) forwards overridden request headers this way.
    expect(first.headers.get("x-middleware-request-content-security-policy")).toBe(policy);
    const second = proxy(new NextRequest("http://localhost:3000/")).headers.get("content-security-policy") ?? "";
    expect(nonceOf(second)).not.toBe(nonceOf(policy));
    expect(Buffer.from(nonceOf(policy), "base64")).toHaveLength(16);
  });

  it("runs on pages, not on API answers or build assets", () => {
    const matches = (url: string) => unstable_doesMiddlewareMatch({ config: proxyConfig, url });
    expect(["/", "/signin", "/sets/set_1", "/docs", "/admin"].map(matches)).toEqual([true, true, true, true, true]);
    expect(["/api/sets", "/v1/documents/analyze", "/_next/static/chunks/app.js"].map(matches)).toEqual([false, false, false]);
  });
});

describe("HSTS", () => {
  it("is sent when the service is reached over https, directly or behind TLS termination", () => {
    delete process.env.NEXTAUTH_URL;
    expect(proxy(new NextRequest("https://docs.example/sets")).headers.get("strict-transport-security")).toBe("max-age=31536000; includeSubDomains");
    process.env.NEXTAUTH_URL = "https://docs.example";
    expect(proxy(new NextRequest("http://10.0.0.5:3000/sets")).headers.get("strict-transport-security")).toBe("max-age=31536000; includeSubDomains");
  });

  it("is sent behind a TLS-terminating proxy named by BEHIND_TLS_PROXY alone, as the Secure cookies are", () => {
    delete process.env.NEXTAUTH_URL;
    vi.stubEnv("BEHIND_TLS_PROXY", "true");
    expect(proxy(new NextRequest("http://10.0.0.5:3000/sets")).headers.get("strict-transport-security")).toBe("max-age=31536000; includeSubDomains");
  });

  it("is not sent over plain http (a browser ignores it there, and a development host must stay reachable)", () => {
    process.env.NEXTAUTH_URL = "http://localhost:3000";
    expect(proxy(new NextRequest("http://localhost:3000/sets")).headers.get("strict-transport-security")).toBeNull();
  });
});

describe("headers on every response (next.config.ts)", () => {
  it.each(["/", "/api/sets", "/v1/documents/analyze", "/_next/static/chunks/app.js"])("%s: nosniff, no framing, no referrer to other origins", async (path) => {
    const response = await unstable_getResponseFromNextConfig({ url: `http://localhost:3000${path}`, nextConfig });
    expect(response.headers.get("x-content-type-options")).toBe("nosniff");
    expect(response.headers.get("x-frame-options")).toBe("DENY");
    expect(response.headers.get("referrer-policy")).toBe("same-origin");
  });
});
