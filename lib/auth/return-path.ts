import { HOME_PATH, SIGN_IN_PATH } from "./paths";

/**
 * Stands in for our origin when NEXTAUTH_URL is unset: only relative paths
 * resolve onto it, and `.invalid` (RFC 2606) can never be a real host.
 */
const PLACEHOLDER_ORIGIN = "http://return-path.invalid";

/**
 * Where to go after signing in: only a page on this site. The candidate is
 * resolved exactly as the browser will resolve it (`new URL`, which drops
 * tabs and newlines, turns backslashes into slashes and collapses dot
 * segments), and kept only when it lands on our own origin. String checks on
 * the raw text miss what the browser rewrites: "/\t/evil.test" is
 * "//evil.test" once the tab is stripped.
 */
export function safeReturnPath(candidate: string | undefined): string {
  if (!candidate) return HOME_PATH;
  const origin = ownOrigin();
  let url: URL;
  try {
    url = new URL(candidate, origin);
  } catch {
    return HOME_PATH;
  }
  if (url.origin !== origin) return HOME_PATH;
  const path = url.pathname + url.search + url.hash;
  // "/.//evil.test" resolves on our origin to the path "//evil.test", which
  // the browser would read again as another host: resolve the result once more.
  if (new URL(path, origin).origin !== origin) return HOME_PATH;
  if (url.pathname.startsWith(SIGN_IN_PATH) || url.pathname.startsWith("/api/")) return HOME_PATH;
  return path;
}

function ownOrigin(): string {
  const configured = process.env.NEXTAUTH_URL;
  return configured ? new URL(configured).origin : PLACEHOLDER_ORIGIN;
}
