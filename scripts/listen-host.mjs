/**
 * Where `npm start` listens. A plain-http loopback origin (the trial default, `http://localhost:$PORT`)
 * is the one production configuration whose session cookies go without `Secure` (lib/auth/cookies.ts):
 * that is safe only if no other machine can reach the server, so it listens on loopback alone. Any
 * other origin (https, or behind a TLS-terminating proxy) listens where Next does by default, every
 * interface, unless HOSTNAME says otherwise.
 *
 * @param {string | undefined} origin NEXTAUTH_URL as `npm start` passes it
 * @param {string | undefined} hostname HOSTNAME, when the operator set one
 * @returns {string | undefined} the host for `next start --hostname`, or undefined for Next's default
 */
export function listenHostFor(origin, hostname) {
  if (hostname) return hostname;
  let url;
  try {
    url = new URL(origin ?? "");
  } catch {
    return undefined;
  }
  if (url.protocol !== "http:") return undefined;
  if (url.hostname === "localhost" || url.hostname === "127.0.0.1") return "127.0.0.1";
  if (url.hostname === "[::1]") return "::1";
  return undefined;
}
