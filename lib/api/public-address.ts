import "server-only";
import { isIP } from "node:net";
import ipaddr from "ipaddr.js";

/**
 * An address spelled as the socket reads it: ipaddr.js takes "::8.8.8.8" for
 * ::ffff:8.8.8.8, inet_pton (and WHATWG URL) for ::808:808. Undefined for
 * what URL refuses (an IPv6 zone such as fe80::1%eth0: link-local anyway).
 */
function canonicalOf(address: string): string | undefined {
  if (isIP(address) !== 6) return address;
  try {
    return new URL(`http://[${address}]/`).hostname.slice(1, -1);
  } catch {
    return undefined;
  }
}

/**
 * Whether an IP address may be fetched from: only public unicast. `process()`
 * unwraps IPv4-mapped IPv6 (::ffff:127.0.0.1 is loopback), and ipaddr.js 2.5
 * already classes as non-unicast every special range we refuse: 0/8, 10/8,
 * 100.64/10, 127/8, 169.254/16, 172.16/12, 192.0.0/24, 192.168/16, 198.18/15,
 * 240/4, ::/128, ::1, fc00::/7, fe80::/10, 64:ff9b::/96, 2002::/16, 2001::/32
 * (test/api/public-address.test.ts holds it to that list). It does not class
 * IPv4-compatible IPv6 (::/96, deprecated by RFC 4291 2.5.5.1: ::7f00:1 is
 * ::127.0.0.1), which some stacks still route to the IPv4 address it embeds;
 * no public host is reached that way, so the whole block is refused.
 */
export function isPublicAddress(address: string): boolean {
  const canonical = canonicalOf(address);
  if (canonical === undefined || !ipaddr.isValid(canonical)) return false;
  const parsed = ipaddr.parse(canonical);
  if (parsed instanceof ipaddr.IPv6 && parsed.parts.slice(0, 6).every((part) => part === 0)) return false;
  return ipaddr.process(canonical).range() === "unicast";
}

/**
 * The IP literal a URL hostname spells, or undefined for a DNS name. WHATWG
 * `URL` has already normalised IPv4 spellings (127.1, 0x7f000001, 2130706433,
 * 0177.0.0.1, 0) to dotted quads; IPv6 keeps its brackets, which we strip.
 */
export function ipLiteralOf(hostname: string): string | undefined {
  const bare = hostname.startsWith("[") && hostname.endsWith("]") ? hostname.slice(1, -1) : hostname;
  return isIP(bare) === 0 ? undefined : bare;
}
