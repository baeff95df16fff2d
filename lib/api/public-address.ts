import "server-only";
import { isIP } from "node:net";
import ipaddr from "ipaddr.js";

/**
 * Whether an IP address may be fetched from: only public unicast. `process()`
 * unwraps IPv4-mapped IPv6 (::ffff:127.0.0.1 is loopback), and ipaddr.js 2.5
 * already classes as non-unicast every special range we refuse: 0/8, 10/8,
 * 100.64/10, 127/8, 169.254/16, 172.16/12, 192.0.0/24, 192.168/16, 198.18/15,
 * 240/4, ::/128, ::1, fc00::/7, fe80::/10, 64:ff9b::/96, 2002::/16, 2001::/32
 * (test/api/public-address.test.ts holds it to that list).
 */
export function isPublicAddress(address: string): boolean {
  if (!ipaddr.isValid(address)) return false;
  return ipaddr.process(address).range() === "unicast";
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
