import "server-only";
import { getDb } from "@/db/client";
import { hasAnyUser } from "@/lib/services/has-any-user";
import { installClientAddressHook, parseTrustedProxies } from "./client-ip";
import { assertCookieConfiguration } from "./cookies";
import { setupTokenAnnouncement } from "./setup-token";

/**
 * What sign-in needs checked or set up when the server starts: a refused
 * configuration is logged and ends the process, so `npm start` fails loudly
 * rather than serving session cookies in the clear or trusting a malformed
 * proxy list. On an empty database it prints where to set up the first admin
 * and the one-time setup token that page asks for.
 */
export async function startAuth(): Promise<void> {
  try {
    assertCookieConfiguration();
    installClientAddressHook(parseTrustedProxies(process.env.TRUSTED_PROXIES));
  } catch (error) {
    console.error(error instanceof Error ? error.message : error);
    process.exit(1);
  }
  await announceSetupToken().catch((error: unknown) => console.error(`setup token not announced: ${error instanceof Error ? error.message : error}`));
}

async function announceSetupToken(): Promise<void> {
  if (await hasAnyUser(await getDb())) return;
  console.log(setupTokenAnnouncement(process.env.NEXTAUTH_URL ?? "http://localhost:3000"));
}
