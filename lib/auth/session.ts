import "server-only";
import { cookies } from "next/headers";
import { notFound, redirect } from "next/navigation";
import { getDb } from "@/db/client";
import { sessionCookieName } from "./cookies";
import { SIGN_IN_PATH } from "./paths";
import { isSameOriginRequest } from "./same-origin";
import { loadSessionUser, readSessionClaims, type SessionUser } from "./session-lookup";

export type { SessionUser } from "./session-lookup";
export { HOME_PATH } from "./paths";

/**
 * The data-access guards. Every page, route handler and server action calls
 * one of them itself: a layout or a proxy is never the only check
 * (CVE-2025-29927). Each call decrypts the session cookie and then re-reads
 * the user and membership from the database, so the role is never taken
 * from the token.
 */

/** The signed-in user of the current page render, or null. */
export async function getSession(): Promise<SessionUser | null> {
  const token = (await cookies()).get(sessionCookieName())?.value;
  return sessionOfToken(token);
}

/** For pages and server actions: the signed-in user, or a redirect to the sign-in page. */
export async function requireMember(): Promise<SessionUser> {
  const session = await getSession();
  if (!session) redirect(SIGN_IN_PATH);
  return session;
}

/** For admin pages and actions: members get the 404 page, as if the page did not exist. */
export async function requireAdmin(): Promise<SessionUser> {
  const session = await requireMember();
  if (session.role !== "admin") notFound();
  return session;
}

/** For route handlers: the signed-in user, or a 401 `{"detail"}` response to return as is. */
export async function requireMemberForRoute(request: Request): Promise<SessionUser | Response> {
  const session = await sessionOfToken(readCookie(request.headers.get("cookie"), sessionCookieName()));
  return session ?? Response.json({ detail: "Sign in to continue." }, { status: 401 });
}

/** For admin route handlers: 401 without a session, 403 `{"detail"}` for members. */
export async function requireAdminForRoute(request: Request): Promise<SessionUser | Response> {
  const session = await requireMemberForRoute(request);
  if (session instanceof Response || session.role === "admin") return session;
  return Response.json({ detail: "Only an administrator of this organization can do this." }, { status: 403 });
}

/**
 * For cookie-authenticated handlers that change something (POST, PATCH, PUT,
 * DELETE): a 403 `{"detail"}` response for a cross-site request, undefined
 * when the request comes from our own pages.
 */
export function assertSameOrigin(request: Request): Response | undefined {
  if (isSameOriginRequest(request)) return undefined;
  return Response.json({ detail: "Cross-site request refused." }, { status: 403 });
}

async function sessionOfToken(token: string | undefined): Promise<SessionUser | null> {
  const claims = await readSessionClaims(token);
  if (!claims) return null;
  return loadSessionUser(await getDb(), claims);
}

function readCookie(header: string | null, name: string): string | undefined {
  if (!header) return undefined;
  for (const pair of header.split(";")) {
    const separator = pair.indexOf("=");
    if (separator < 0 || pair.slice(0, separator).trim() !== name) continue;
    const value = pair.slice(separator + 1).trim();
    try {
      return decodeURIComponent(value);
    } catch {
      return undefined;
    }
  }
  return undefined;
}
