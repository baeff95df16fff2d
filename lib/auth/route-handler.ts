import "server-only";
import { getDb, type Db } from "@/db/client";
import { parseJsonText } from "@/lib/http/json-text";
import { type Authenticate, type RouteHandler, withRoute } from "@/lib/http/route";
import { assertSameOrigin, requireAdminForRoute, requireMemberForRoute, type SessionUser } from "./session";

const MUTATING_METHODS = new Set(["POST", "PUT", "PATCH", "DELETE"]);

export interface SessionCaller {
  session: SessionUser;
  db: Db;
}

export type SessionRouteHandler<Params> = RouteHandler<SessionCaller, Params>;

/**
 * The caller of a cookie-authenticated route: the session (re-read from the
 * database; 401/403), then, on mutating methods, the same-origin check (403).
 * The organization always comes from the session, never from the request.
 */
function authenticateSession(guard: (request: Request) => Promise<SessionUser | Response>): Authenticate<SessionCaller> {
  return async (request) => {
    const session = await guard(request);
    if (session instanceof Response) return session;
    if (MUTATING_METHODS.has(request.method)) {
      const refused = assertSameOrigin(request);
      if (refused) return refused;
    }
    return { session, db: await getDb() };
  };
}

const organizationOf = (caller: SessionCaller) => caller.session.organizationId;
const memberRoute = withRoute(authenticateSession(requireMemberForRoute), organizationOf);
const adminRoute = withRoute(authenticateSession(requireAdminForRoute), organizationOf);

/** For handlers any signed-in member may call. */
export function withMemberRoute<Params = Record<string, never>>(handler: SessionRouteHandler<Params>) {
  return memberRoute(handler);
}

/** For handlers only the organization's admins may call. */
export function withAdminRoute<Params = Record<string, never>>(handler: SessionRouteHandler<Params>) {
  return adminRoute(handler);
}

/** The JSON body of a request; an ApiError (400) when it is not JSON or holds a NUL. */
export async function readJsonBody(request: Request): Promise<unknown> {
  return parseJsonText(await request.text());
}
