import "server-only";
import { subscribe } from "node:diagnostics_channel";
import type { IncomingMessage } from "node:http";
import type { Socket } from "node:net";
import ipaddr from "ipaddr.js";

/**
 * The client address for per-address throttling and the audit trail (ASVS
 * 15.3.4). X-Forwarded-For is whatever the client wrote unless a proxy of
 * ours rewrote it, and `next start` does not: it fills the header only when
 * the client sent none. So the address comes from the socket, and a
 * forwarded hop is believed only when the peer that handed it to us is named
 * in TRUSTED_PROXIES.
 *
 * Route handlers never see the socket; a hook on Node's own
 * `http.server.request.start` channel (fired before any request handler)
 * writes the resolved address into CLIENT_ADDRESS_HEADER, replacing whatever
 * a client sent under that name.
 */
export const CLIENT_ADDRESS_HEADER = "x-shipshape-client-address";
export const UNKNOWN_ADDRESS = "unknown";

/** Comma-separated addresses or CIDR ranges, e.g. "10.0.0.0/8, 127.0.0.1". */
export type TrustedProxies = Array<[ipaddr.IPv4 | ipaddr.IPv6, number]>;

export function parseTrustedProxies(value: string | undefined): TrustedProxies {
  const entries = (value ?? "").split(",").map((part) => part.trim()).filter(Boolean);
  return entries.map((entry) => {
    try {
      if (entry.includes("/")) return ipaddr.parseCIDR(entry);
      const address = ipaddr.process(entry);
      return [address, address.kind() === "ipv4" ? 32 : 128];
    } catch {
      throw new Error(`TRUSTED_PROXIES: "${entry}" is not an address or CIDR range`);
    }
  });
}

/**
 * Walks from the socket's peer towards the client: each hop that is a trusted
 * proxy vouches for the entry before it in X-Forwarded-For; the first hop
 * that is not trusted is the client. Nothing trusted: the socket's peer.
 */
export function resolveClientAddress(socketAddress: string | undefined, forwardedFor: string | undefined, trusted: TrustedProxies): string {
  const peer = normalize(socketAddress);
  if (!peer) return UNKNOWN_ADDRESS;
  const hops = (forwardedFor ?? "").split(",").map((part) => part.trim()).filter(Boolean);
  let current = peer;
  while (isTrusted(current, trusted) && hops.length > 0) {
    const previous = normalize(hops.pop());
    // A hop a trusted proxy wrote that is not an address: stop at the proxy rather than guess.
    if (!previous) return current;
    current = previous;
  }
  return current;
}

/** The address the hook resolved for this request; "unknown" when no hook ran (never a client-chosen value). */
export function clientIpOf(headers: Headers | Record<string, string | string[] | undefined>): string {
  const raw = headers instanceof Headers ? headers.get(CLIENT_ADDRESS_HEADER) : headers[CLIENT_ADDRESS_HEADER];
  const value = Array.isArray(raw) ? raw[0] : raw;
  return value && isAddress(value) ? value : UNKNOWN_ADDRESS;
}

const HOOK_INSTALLED = Symbol.for("shipshape.client-address-hook");

/** Subscribes the hook once per process (instrumentation.ts calls it at start-up). */
export function installClientAddressHook(trusted: TrustedProxies = parseTrustedProxies(process.env.TRUSTED_PROXIES)): void {
  const registry = globalThis as { [HOOK_INSTALLED]?: boolean };
  if (registry[HOOK_INSTALLED]) return;
  registry[HOOK_INSTALLED] = true;
  subscribe("http.server.request.start", (message) => {
    const { request, socket } = message as { request: IncomingMessage; socket: Socket };
    const forwarded = request.headers["x-forwarded-for"];
    request.headers[CLIENT_ADDRESS_HEADER] = resolveClientAddress(
      socket.remoteAddress,
      Array.isArray(forwarded) ? forwarded.join(",") : forwarded,
      trusted,
    );
  });
}

function isTrusted(address: string, trusted: TrustedProxies): boolean {
  const parsed = ipaddr.parse(address);
  return trusted.some(([range, bits]) => range.kind() === parsed.kind() && parsed.match(range, bits));
}

/** A canonical address ("::ffff:10.0.0.1" is 10.0.0.1), or null for anything that is not one. */
function normalize(value: string | undefined): string | null {
  if (!value || !isAddress(value)) return null;
  return ipaddr.process(value).toString();
}

/** Dotted-quad IPv4 or IPv6 only: "1.2.3" and "0x7f.1" are legal to ipaddr.js but no socket or proxy writes them. */
function isAddress(value: string): boolean {
  return ipaddr.IPv4.isValidFourPartDecimal(value) || ipaddr.IPv6.isValid(value);
}
