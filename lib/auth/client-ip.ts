import "server-only";

/**
 * The client address for per-IP throttling. `next start` fills
 * X-Forwarded-For with the socket's address when no proxy did, and a
 * reverse proxy appends the address it saw, so the last entry is the one our
 * own infrastructure vouches for (ASVS 15.3.4); earlier entries may be forged.
 */
export function clientIpOf(headers: Headers | Record<string, string | string[] | undefined>): string {
  const raw = headers instanceof Headers ? headers.get("x-forwarded-for") : headers["x-forwarded-for"];
  const value = Array.isArray(raw) ? raw.join(",") : raw;
  const last = value?.split(",").map((part) => part.trim()).filter(Boolean).pop();
  return last ?? "unknown";
}
