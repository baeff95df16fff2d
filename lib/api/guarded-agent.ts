import "server-only";
import { lookup } from "node:dns/promises";
import { Agent, buildConnector } from "undici";
import { ApiError } from "@/lib/errors";
import { ipLiteralOf, isPublicAddress } from "./public-address";

/** Every address a host name resolves to (A and AAAA). */
export type ResolveHost = (hostname: string) => Promise<string[]>;

export const resolveWithDns: ResolveHost = async (hostname) =>
  (await lookup(hostname, { all: true, verbatim: true })).map((entry) => entry.address);

/** Time allowed to open one TCP (and TLS) connection. */
const CONNECT_TIMEOUT_MS = 10_000;

export interface GuardOptions {
  resolve: ResolveHost;
  /** Test-only: one loopback origin (`http://127.0.0.1:PORT`) treated as public. */
  trustedOrigin?: string;
}

/**
 * The address to open a socket to, vetted at connect time: the one check that
 * sees what is actually dialled. Names are resolved here, once, and every
 * address must be public (one private record is enough to refuse, since the
 * OS or a retry could pick it); the socket then goes to the vetted IP, so a
 * second resolution can never swap it (DNS rebinding). IP literals are checked
 * too: Node skips `lookup` for them.
 */
async function vetTarget(protocol: string, host: string, hostname: string, options: GuardOptions): Promise<string> {
  if (options.trustedOrigin !== undefined && `${protocol}//${host}` === options.trustedOrigin) return hostname;
  const literal = ipLiteralOf(hostname);
  if (literal !== undefined) {
    if (!isPublicAddress(literal)) {
      throw new ApiError("invalid_input", `The url's host ${hostname} is not a public internet address.`);
    }
    return literal;
  }
  // One answer whether the name has no address or a non-public one: two answers would let a caller
  // map the internal DNS (which internal names exist) through this server.
  const refusal = new ApiError("invalid_input", `The url's host ${hostname} does not resolve to a public internet address.`);
  let addresses: string[];
  try {
    addresses = await options.resolve(hostname);
  } catch {
    throw refusal;
  }
  if (addresses.length === 0 || !addresses.every(isPublicAddress)) throw refusal;
  return addresses[0] as string;
}

/**
 * An undici Agent for fetching caller-supplied URLs: its connector resolves
 * and vets the target itself, then connects to that exact IP while keeping
 * the name for TLS (SNI comes from `host`) and the Host header.
 */
export function createGuardedAgent(options: GuardOptions): Agent {
  const connectTo = buildConnector({ timeout: CONNECT_TIMEOUT_MS });
  return new Agent({
    connect: (target, callback) => {
      const { protocol, hostname } = target;
      vetTarget(protocol, target.host ?? hostname, hostname, options).then(
        (address) => {
          // TLS must still name the host, not the pinned IP.
          const servername = target.servername ?? (ipLiteralOf(hostname) === undefined ? hostname : undefined);
          connectTo({ ...target, hostname: address, servername }, callback);
        },
        (error: Error) => callback(error, null),
      );
    },
  });
}
