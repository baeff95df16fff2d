import "server-only";
import type { CookiesOptions } from "next-auth";
import { browsersSpeakHttps, publicOriginOf } from "@/lib/http/public-origin";

/**
 * Session cookies are Secure with the `__Host-` prefix (no Domain, Path=/, so
 * no subdomain can set or read them, ASVS 3.3.3) whenever the browser talks
 * https to us: NEXTAUTH_URL is https, or BEHIND_TLS_PROXY says a proxy in
 * front terminates TLS. Only a loopback origin (a trial on one's own machine,
 * the test servers) may go without, because a cookie sent to it never
 * crosses a network. Production refuses any other configuration: see
 * assertCookieConfiguration.
 */
function usesSecureCookies(environment: NodeJS.ProcessEnv = process.env): boolean {
  return browsersSpeakHttps(environment);
}

/**
 * Throws, naming the fix, when production would send session cookies in the
 * clear or not know its own origin: NEXTAUTH_URL unset (the origin would then
 * come from whatever Host a request names), with or without BEHIND_TLS_PROXY,
 * or plain http on a host other than loopback without BEHIND_TLS_PROXY. Called once at start-up (instrumentation.ts) so the server
 * does not start, and again whenever auth options are built.
 */
export function assertCookieConfiguration(environment: NodeJS.ProcessEnv = process.env): void {
  if (environment.NODE_ENV !== "production") return;
  const origin = publicOriginOf(environment);
  // Behind a TLS proxy too: unset, next-auth would take http://localhost:3000 as its own URL for redirects.
  if (!origin) {
    throw new Error(
      "Refusing to start: NEXTAUTH_URL is unset, so neither the session cookies nor sign-in's redirects know this service's origin. " +
        "Set NEXTAUTH_URL to the public https origin (with BEHIND_TLS_PROXY=true when a proxy in front terminates TLS).",
    );
  }
  if (usesSecureCookies(environment) || LOOPBACK_HOSTS.has(origin.hostname)) return;
  throw new Error(
    `Refusing to start: session cookies would travel without Secure. Set NEXTAUTH_URL to the public https origin, ` +
      `or BEHIND_TLS_PROXY=true when a proxy in front terminates TLS (NEXTAUTH_URL is ${origin.origin}).`,
  );
}

const LOOPBACK_HOSTS = new Set(["localhost", "127.0.0.1", "[::1]"]);


const BASE_NAMES = {
  sessionToken: "shipshape.session",
  callbackUrl: "shipshape.callback-url",
  csrfToken: "shipshape.csrf",
} as const;

function cookieName(base: string): string {
  return usesSecureCookies() ? `__Host-${base}` : base;
}

export function sessionCookieName(): string {
  return cookieName(BASE_NAMES.sessionToken);
}

/** HttpOnly and SameSite=Lax everywhere: scripts never read them and cross-site POSTs never carry them. */
export function authCookies(): Partial<CookiesOptions> {
  assertCookieConfiguration();
  const options = { httpOnly: true, sameSite: "lax" as const, path: "/", secure: usesSecureCookies() };
  return {
    sessionToken: { name: cookieName(BASE_NAMES.sessionToken), options },
    callbackUrl: { name: cookieName(BASE_NAMES.callbackUrl), options },
    csrfToken: { name: cookieName(BASE_NAMES.csrfToken), options },
  };
}
