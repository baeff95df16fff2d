import { HOME_PATH } from "./paths";

/**
 * Where to go after signing in: only a path on this site. Absolute URLs,
 * protocol-relative `//host` and backslash tricks fall back to the home page,
 * so a crafted link cannot bounce a fresh session to another site.
 */
export function safeReturnPath(candidate: string | undefined): string {
  if (!candidate) return HOME_PATH;
  let path = candidate;
  // next-auth passes an absolute callbackUrl on our own origin; keep only its path.
  if (/^https?:\/\//i.test(path)) {
    const url = new URL(path);
    const own = process.env.NEXTAUTH_URL ? new URL(process.env.NEXTAUTH_URL).origin : undefined;
    if (url.origin !== own) return HOME_PATH;
    path = url.pathname + url.search;
  }
  if (!path.startsWith("/") || path.startsWith("//") || path.includes("\\")) return HOME_PATH;
  if (path.startsWith("/signin") || path.startsWith("/api/")) return HOME_PATH;
  return path;
}
