import "server-only";
import { randomUUID } from "node:crypto";
import type { AuthOptions } from "next-auth";
import { encode, type JWT } from "next-auth/jwt";
import CredentialsProvider from "next-auth/providers/credentials";
import { getDb } from "@/db/client";
import { insertAuditEvent } from "@/db/queries/audit-events";
import { revokeSession } from "@/db/queries/sessions";
import { withOrganizationScope, withSystemScope } from "@/db/scope";
import { describeError, logError } from "@/lib/log";
import { authenticateCredentials } from "./authenticate";
import { clientIpOf } from "./client-ip";
import { NEW_PASSWORD_INVALID_ERROR, PASSWORD_CHANGE_REQUIRED_ERROR, SIGN_IN_UNAVAILABLE_ERROR, throttledError } from "./error-codes";
import { authCookies } from "./cookies";
import { SIGN_IN_PATH } from "./paths";
import { resolveAuthSecret } from "./secret";
import { secondsLeftInSession, sessionEndsAt, sessionLifetimeMs } from "./session-lifetime";
import { claimsOfPayload, loadSessionUser } from "./session-lookup";

/**
 * next-auth v4 with one Credentials provider and encrypted JWT sessions.
 * The token carries only the user id (`sub`), the organization (`org`), a
 * session id (`sid`) and the sign-in time (`sat`); the guards in ./session
 * re-read the role from the database on every call and refuse a session that
 * was signed out or has outlived its lifetime.
 *
 * next-auth renews the token on every GET /api/auth/session. A renewal keeps
 * `sid` and `sat`, is refused (and the cookie cleared) for an ended session,
 * and never expires later than the sign-in time plus the lifetime.
 */
export function authOptions(): AuthOptions {
  const lifetimeSeconds = Math.floor(sessionLifetimeMs() / 1000);
  return {
    secret: resolveAuthSecret(),
    session: { strategy: "jwt", maxAge: lifetimeSeconds },
    jwt: {
      async encode(params) {
        const sat = params.token?.sat;
        const maxAge = typeof sat === "number" ? Math.min(params.maxAge ?? lifetimeSeconds, secondsLeftInSession(sat)) : 0;
        return encode({ ...params, maxAge });
      },
    },
    cookies: authCookies(),
    pages: { signIn: SIGN_IN_PATH, error: SIGN_IN_PATH },
    // The code and the error described as every server log line describes it (lib/log): next-auth's
    // default prints stacks and whole messages, and a failed query's message holds its parameters.
    logger: {
      error: (code, metadata) => console.error(`[next-auth] ${code}: ${describeError(metadata instanceof Error ? metadata : ((metadata as { error?: unknown })?.error ?? metadata))}`),
      warn: (code) => console.warn(`[next-auth] ${code}`),
      debug: () => undefined,
    },
    providers: [
      CredentialsProvider({
        name: "E-mail and password",
        credentials: {
          email: { label: "E-mail", type: "email" },
          password: { label: "Password", type: "password" },
          newPassword: { label: "New password", type: "password" },
        },
        async authorize(credentials, request) {
          // Who signs in, and so which organization, is what this finds out.
          const result = await withSystemScope("sign-in", async () =>
            authenticateCredentials(await getDb(), {
              email: String(credentials?.email ?? ""),
              password: String(credentials?.password ?? ""),
              ip: clientIpOf(request.headers ?? {}),
              newPassword: credentials?.newPassword ? String(credentials.newPassword) : undefined,
            }),
          ).catch((error: unknown) => {
            // next-auth would put this error's message (a failed query's SQL) in the browser's redirect.
            logError(`[sign-in ${randomUUID()}] internal error`, error);
            throw new Error(SIGN_IN_UNAVAILABLE_ERROR);
          });
          if (result.ok) return { id: result.userId, email: result.email, organizationId: result.organizationId };
          if (result.reason === "throttled") throw new Error(throttledError(result.retryAfterSeconds));
          if (result.reason === "password_change_required") throw new Error(PASSWORD_CHANGE_REQUIRED_ERROR);
          if (result.reason === "new_password_invalid") throw new Error(NEW_PASSWORD_INVALID_ERROR);
          return null;
        },
      }),
    ],
    callbacks: {
      async jwt({ token, user }): Promise<JWT> {
        // On sign-in `user` is what authorize returned.
        if (user) return { sub: user.id, org: (user as { organizationId?: string }).organizationId, sid: randomUUID(), sat: Date.now() };
        // A renewal: next-auth answers a throw with an empty session and a cleared cookie.
        const claims = claimsOfPayload(token);
        if (!claims || !(await loadSessionUser(await getDb(), claims))) throw new Error("session ended");
        return { sub: claims.userId, org: claims.organizationId, sid: claims.sessionId, sat: claims.signedInAt };
      },
      session({ session, token }) {
        return { ...session, user: { email: session.user?.email ?? null }, userId: token.sub };
      },
    },
    events: {
      async signOut({ token }) {
        const { sub: userId, org: organizationId, sid: sessionId, sat: signedInAt } = token ?? {};
        if (typeof userId !== "string" || typeof organizationId !== "string") return;
        const db = await getDb();
        await withOrganizationScope(organizationId, async () => {
          if (typeof sessionId === "string") {
            // Copies of this cookie (another tab, a stolen one) die with it; the revocation is kept until
            // the session's absolute end, after which no copy of it is accepted anyway.
            const expiresAt = typeof signedInAt === "number" ? sessionEndsAt(signedInAt) : new Date(Date.now() + sessionLifetimeMs());
            await revokeSession(db, { sessionId, userId, expiresAt });
          }
          await insertAuditEvent(db, { organizationId, actor: userId, action: "session.signed_out", target: userId });
        });
      },
    },
  };
}
