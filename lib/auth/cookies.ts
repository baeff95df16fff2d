import "server-only";
import type { CookiesOptions } from "next-auth";

/**
 * Session cookies follow NEXTAUTH_URL's scheme: served over https they are
 * Secure with the `__Host-` prefix (no Domain, Path=/, so no subdomain can set
 * or read them, ASVS 3.3.3); on http://localhost or 127.0.0.1 (tests,
 * development) a browser would drop Secure cookies, so they go without.
 */
export function usesSecureCookies(): boolean {
  return (process.env.NEXTAUTH_URL ?? "").startsWith("https://");
}

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
  const options = { httpOnly: true, sameSite: "lax" as const, path: "/", secure: usesSecureCookies() };
  return {
    sessionToken: { name: cookieName(BASE_NAMES.sessionToken), options },
    callbackUrl: { name: cookieName(BASE_NAMES.callbackUrl), options },
    csrfToken: { name: cookieName(BASE_NAMES.csrfToken), options },
  };
}
