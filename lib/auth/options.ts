import "server-only";
import { randomUUID } from "node:crypto";
import type { AuthOptions } from "next-auth";
import CredentialsProvider from "next-auth/providers/credentials";
import { getDb } from "@/db/client";
import { insertAuditEvent } from "@/db/queries/audit-events";
import { revokeSession } from "@/db/queries/sessions";
import { authenticateCredentials } from "./authenticate";
import { clientIpOf } from "./client-ip";
import { throttledError } from "./error-codes";
import { authCookies } from "./cookies";
import { SIGN_IN_PATH } from "./paths";
import { resolveAuthSecret } from "./secret";

/** An absolute session lifetime of one working day; the token is not renewed by page loads. */
export const SESSION_MAX_AGE_SECONDS = 8 * 60 * 60;

/**
 * next-auth v4 with one Credentials provider and encrypted JWT sessions.
 * The token carries only the user id (`sub`), the organization (`org`) and
 * a session id (`sid`); the guards in ./session re-read the role from the
 * database on every call and refuse a session that was signed out.
 */
export function authOptions(): AuthOptions {
  return {
    secret: resolveAuthSecret(),
    session: { strategy: "jwt", maxAge: SESSION_MAX_AGE_SECONDS },
    cookies: authCookies(),
    pages: { signIn: SIGN_IN_PATH, error: SIGN_IN_PATH },
    providers: [
      CredentialsProvider({
        name: "E-mail and password",
        credentials: { email: { label: "E-mail", type: "email" }, password: { label: "Password", type: "password" } },
        async authorize(credentials, request) {
          const result = await authenticateCredentials(await getDb(), {
            email: String(credentials?.email ?? ""),
            password: String(credentials?.password ?? ""),
            ip: clientIpOf(request.headers ?? {}),
          });
          if (result.ok) return { id: result.userId, email: result.email, organizationId: result.organizationId };
          if (result.reason === "throttled") throw new Error(throttledError(result.retryAfterSeconds));
          return null;
        },
      }),
    ],
    callbacks: {
      jwt({ token, user }) {
        // On sign-in `user` is what authorize returned; afterwards the token passes through unchanged.
        if (user) return { sub: user.id, org: (user as { organizationId?: string }).organizationId, sid: randomUUID() };
        return { sub: token.sub, org: token.org, sid: token.sid };
      },
      session({ session, token }) {
        return { ...session, user: { email: session.user?.email ?? null }, userId: token.sub };
      },
    },
    events: {
      async signOut({ token }) {
        if (typeof token?.sub !== "string" || typeof token.org !== "string") return;
        const db = await getDb();
        if (typeof token.sid === "string") {
          // Copies of this cookie (another tab, a stolen one) die with it, not only when they expire.
          const expiresAt = typeof token.exp === "number" ? new Date(token.exp * 1000) : new Date(Date.now() + SESSION_MAX_AGE_SECONDS * 1000);
          await revokeSession(db, { sessionId: token.sid, userId: token.sub, expiresAt });
        }
        await insertAuditEvent(db, { organizationId: token.org, actor: token.sub, action: "session.signed_out", target: token.sub });
      },
    },
  };
}
