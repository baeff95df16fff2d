import "server-only";
import { installClientAddressHook, parseTrustedProxies } from "./client-ip";
import { assertCookieConfiguration } from "./cookies";

/**
 * What sign-in needs checked or set up when the server starts: a refused
 * configuration is logged and ends the process, so `npm start` fails loudly
 * rather than serving session cookies in the clear or trusting a malformed
 * proxy list.
 */
export async function startAuth(): Promise<void> {
  try {
    assertCookieConfiguration();
    installClientAddressHook(parseTrustedProxies(process.env.TRUSTED_PROXIES));
  } catch (error) {
    console.error(error instanceof Error ? error.message : error);
    process.exit(1);
  }
}
