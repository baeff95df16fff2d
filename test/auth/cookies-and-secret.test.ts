import { mkdtempSync, readFileSync, rmSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterEach, describe, expect, it, vi } from "vitest";
import { assertCookieConfiguration, authCookies, sessionCookieName } from "@/lib/auth/cookies";
import { safeReturnPath } from "@/lib/auth/return-path";
import { readOrCreateSecretFile } from "@/lib/auth/secret";

const savedUrl = process.env.NEXTAUTH_URL;
afterEach(() => {
  if (savedUrl === undefined) delete process.env.NEXTAUTH_URL;
  else process.env.NEXTAUTH_URL = savedUrl;
});

describe("session cookies", () => {
  it("are Secure with the __Host- prefix, HttpOnly and SameSite=Lax when served over https", () => {
    process.env.NEXTAUTH_URL = "https://shipshape.example";
    const cookies = authCookies();
    expect(sessionCookieName()).toBe("__Host-shipshape.session");
    for (const cookie of [cookies.sessionToken, cookies.csrfToken, cookies.callbackUrl]) {
      expect(cookie?.name).toMatch(/^__Host-shipshape\./);
      // __Host- cookies must be Secure, Path=/ and carry no Domain, or browsers drop them.
      expect(cookie?.options).toEqual({ httpOnly: true, sameSite: "lax", path: "/", secure: true });
    }
  });

  it("drop Secure and the prefix on plain-http development and test servers", () => {
    process.env.NEXTAUTH_URL = "http://127.0.0.1:3100";
    expect(sessionCookieName()).toBe("shipshape.session");
    expect(authCookies().sessionToken?.options).toEqual({ httpOnly: true, sameSite: "lax", path: "/", secure: false });
  });
});

describe("cookies fail closed in production", () => {
  const production = (extra: Record<string, string>) => ({ NODE_ENV: "production", ...extra }) as NodeJS.ProcessEnv;

  it.each([
    ["an http origin on the network", { NEXTAUTH_URL: "http://shipshape.example" }],
    ["an http origin on a LAN address", { NEXTAUTH_URL: "http://10.0.0.5:3000" }],
    ["BEHIND_TLS_PROXY set to something other than true", { NEXTAUTH_URL: "http://shipshape.example", BEHIND_TLS_PROXY: "yes" }],
  ])("refuses to start with %s", (_name, extra) => {
    expect(() => assertCookieConfiguration(production(extra))).toThrow(
      /^Refusing to start: session cookies would travel without Secure\. Set NEXTAUTH_URL to the public https origin, or BEHIND_TLS_PROXY=true/,
    );
  });

  it.each([
    ["nothing else", {}],
    ["BEHIND_TLS_PROXY (next-auth would redirect to http://localhost:3000)", { BEHIND_TLS_PROXY: "true" }],
  ])("refuses to start with NEXTAUTH_URL unset and %s", (_name, extra) => {
    expect(() => assertCookieConfiguration(production(extra))).toThrow(/^Refusing to start: NEXTAUTH_URL is unset/);
  });

  it.each([
    ["an https origin", { NEXTAUTH_URL: "https://shipshape.example" }],
    ["a proxy that terminates TLS", { NEXTAUTH_URL: "http://shipshape.example", BEHIND_TLS_PROXY: "true" }],
    ["a loopback origin (a trial on one's own machine)", { NEXTAUTH_URL: "http://localhost:3000" }],
    ["a loopback address", { NEXTAUTH_URL: "http://127.0.0.1:3100" }],
  ])("starts with %s", (_name, extra) => {
    expect(() => assertCookieConfiguration(production(extra))).not.toThrow();
  });

  it("makes cookies Secure with the __Host- prefix behind a TLS-terminating proxy", () => {
    vi.stubEnv("NEXTAUTH_URL", "");
    vi.stubEnv("BEHIND_TLS_PROXY", "true");
    try {
      expect(sessionCookieName()).toBe("__Host-shipshape.session");
      expect(authCookies().sessionToken?.options.secure).toBe(true);
    } finally {
      vi.unstubAllEnvs();
    }
  });

  it("builds no session cookie at all in production over plain http", () => {
    vi.stubEnv("NODE_ENV", "production");
    vi.stubEnv("NEXTAUTH_URL", "http://shipshape.example");
    try {
      expect(() => authCookies()).toThrow(/^Refusing to start/);
    } finally {
      vi.unstubAllEnvs();
    }
  });
});

describe("the generated auth secret", () => {
  it("is created once, private to its owner, and read back unchanged", () => {
    const dir = mkdtempSync(path.join(tmpdir(), "shipshape-secret-"));
    try {
      const file = path.join(dir, "nested", "auth-secret");
      const first = readOrCreateSecretFile(file);
      expect(first).toMatch(/^[A-Za-z0-9_-]{43}$/);
      expect(readOrCreateSecretFile(file)).toBe(first);
      expect(readFileSync(file, "utf8")).toBe(first);
      expect(statSync(file).mode & 0o777).toBe(0o600);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe("where sign-in returns to", () => {
  it.each([
    [undefined, "/sets"],
    ["/sets/set_1?tab=matrix", "/sets/set_1?tab=matrix"],
    ["//evil.test/x", "/sets"],
    ["/\\evil.test", "/sets"],
    ["https://evil.test/sets", "/sets"],
    ["javascript:alert(1)", "/sets"],
    ["http://127.0.0.1:3100/admin", "/admin"],
    ["/signin", "/sets"],
    // The browser strips tabs and newlines from a URL before it resolves it: "/\t/evil.test" is "//evil.test".
    ["/\t/evil.test", "/sets"],
    ["/\n/evil.test", "/sets"],
    ["/\r\n/evil.test/x", "/sets"],
    // Dot segments that collapse into a protocol-relative path.
    ["/.//evil.test", "/sets"],
    ["/sets/../..//evil.test", "/sets"],
    ["\\\\evil.test", "/sets"],
    ["/sets/set_1#matrix", "/sets/set_1#matrix"],
  ])("%s → %s", (candidate, expected) => {
    process.env.NEXTAUTH_URL = "http://127.0.0.1:3100";
    expect(safeReturnPath(candidate)).toBe(expected);
  });
});
