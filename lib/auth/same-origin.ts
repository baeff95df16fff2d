import "server-only";

/**
 * Whether a cookie-authenticated request comes from our own pages (ASVS
 * 3.5.1–3.5.3). SameSite=Lax already keeps the cookie off cross-site POSTs;
 * this is the second lock. Browsers send Sec-Fetch-Site on every fetch; older
 * ones send Origin on every non-GET; a request with neither is refused.
 */
export function isSameOriginRequest(request: Request): boolean {
  const fetchSite = request.headers.get("sec-fetch-site");
  if (fetchSite) return fetchSite === "same-origin";
  const origin = request.headers.get("origin");
  if (!origin || origin === "null") return false;
  return origin === expectedOrigin(request);
}

/**
 * NEXTAUTH_URL names the public origin. Without it, the Host header does:
 * under `next start` request.url always says localhost, whatever the browser used.
 */
function expectedOrigin(request: Request): string | null {
  const configured = process.env.NEXTAUTH_URL;
  if (configured) return new URL(configured).origin;
  const host = request.headers.get("host");
  if (!host) return null;
  return `${new URL(request.url).protocol}//${host}`;
}
