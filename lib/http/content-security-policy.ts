import { NextResponse, type NextRequest } from "next/server";
import { browsersSpeakHttps } from "./public-origin";

/**
 * The Content-Security-Policy of every page (security checklist: XSS
 * defence in depth, clickjacking). Scripts run only with this response's
 * nonce, and what they load ('strict-dynamic'): Next.js reads the nonce from
 * the request's own Content-Security-Policy header and puts it on its
 * scripts, so pages must render per request (app/layout.tsx). No
 * 'unsafe-eval' outside `next dev` (React's dev tools need it there); pdfjs is
 * loaded with isEvalSupported: false and its worker from our own origin.
 * Inline style attributes stay allowed (React renders `style={{…}}` as such;
 * a style attribute runs no script), style elements need the nonce.
 */
function pageContentSecurityPolicy(nonce: string, options: { development: boolean }): string {
  const scripts = [`'self'`, `'nonce-${nonce}'`, `'strict-dynamic'`, ...(options.development ? [`'unsafe-eval'`] : [])];
  return [
    `default-src 'self'`,
    `script-src ${scripts.join(" ")}`,
    `style-src 'self' 'nonce-${nonce}'`,
    `style-src-attr 'unsafe-inline'`,
    `img-src 'self' blob: data:`,
    `font-src 'self'`,
    `connect-src 'self'`,
    `worker-src 'self' blob:`,
    `object-src 'none'`,
    `base-uri 'none'`,
    `form-action 'self'`,
    `frame-ancestors 'none'`,
  ].join("; ");
}

/** One year, the preload list's minimum; sent only when the service is reached over https. */
const STRICT_TRANSPORT_SECURITY = "max-age=31536000; includeSubDomains";

/**
 * Whether this request reached us over https: directly, or through TLS
 * termination in front (an https NEXTAUTH_URL, or BEHIND_TLS_PROXY, the same
 * settings that make the session cookies Secure).
 */
function servedOverHttps(request: NextRequest): boolean {
  return request.nextUrl.protocol === "https:" || browsersSpeakHttps();
}

/**
 * Passes a page request on with a fresh nonce in its Content-Security-Policy
 * request header (where Next.js reads it) and answers with the same policy,
 * plus HSTS over https.
 */
export function withPageSecurityHeaders(request: NextRequest): NextResponse {
  const nonce = Buffer.from(crypto.getRandomValues(new Uint8Array(16))).toString("base64");
  const policy = pageContentSecurityPolicy(nonce, { development: process.env.NODE_ENV === "development" });
  const requestHeaders = new Headers(request.headers);
  requestHeaders.set("content-security-policy", policy);
  const response = NextResponse.next({ request: { headers: requestHeaders } });
  response.headers.set("content-security-policy", policy);
  if (servedOverHttps(request)) response.headers.set("strict-transport-security", STRICT_TRANSPORT_SECURITY);
  return response;
}
