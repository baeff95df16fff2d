/**
 * Whether browsers reach this service over https: its public origin
 * (NEXTAUTH_URL) is https, or BEHIND_TLS_PROXY says a proxy in front
 * terminates TLS while this process itself sees plain http. Session cookies
 * (lib/auth/cookies.ts) and HSTS (./content-security-policy.ts) both follow it,
 * so a deployment whose cookies are Secure is also one that sends HSTS.
 */
export function browsersSpeakHttps(environment: NodeJS.ProcessEnv = process.env): boolean {
  return publicOriginOf(environment)?.protocol === "https:" || isBehindTlsProxy(environment);
}

/** NEXTAUTH_URL as a URL, or null when it is unset or not a URL. */
export function publicOriginOf(environment: NodeJS.ProcessEnv = process.env): URL | null {
  const configured = environment.NEXTAUTH_URL;
  if (!configured) return null;
  try {
    return new URL(configured);
  } catch {
    return null;
  }
}

function isBehindTlsProxy(environment: NodeJS.ProcessEnv): boolean {
  return environment.BEHIND_TLS_PROXY === "true" || environment.BEHIND_TLS_PROXY === "1";
}
