import "server-only";
import { randomUUID } from "node:crypto";
import { getDb, type Db } from "@/db/client";
import { withOrganizationScope } from "@/db/organization-scope";
import { logError } from "@/lib/log";
import { ServiceError, type ServiceErrorCode } from "@/lib/services/errors";
import { assertSameOrigin, requireAdminForRoute, requireMemberForRoute, type SessionUser } from "./session";

const STATUS_BY_SERVICE_CODE: Record<ServiceErrorCode, number> = {
  invalid_input: 400,
  forbidden: 403,
  not_found: 404,
  conflict: 409,
};

const MUTATING_METHODS = new Set(["POST", "PUT", "PATCH", "DELETE"]);

export interface SessionRouteContext<Params> {
  session: SessionUser;
  db: Db;
  params: Params;
}

export type SessionRouteHandler<Params> = (request: Request, context: SessionRouteContext<Params>) => Promise<Response>;

/** What Next passes a route handler as its second argument. */
type NextRouteContext<Params> = { params: Promise<Params> };

/**
 * The wrapper for cookie-authenticated route handlers, in this order:
 * session (re-read from the database; 401/403) → same-origin check on
 * mutating methods (403) → handler → one catch that turns a ServiceError into
 * its status with `{"detail"}` and anything else into a 500 naming a request
 * id, never a stack trace or SQL.
 */
function withSessionRoute<Params>(
  guard: (request: Request) => Promise<SessionUser | Response>,
  handler: SessionRouteHandler<Params>,
  scopeReads = false,
): (request: Request, context: NextRouteContext<Params>) => Promise<Response> {
  return async (request, context) => {
    const requestId = randomUUID();
    try {
      const session = await guard(request);
      if (session instanceof Response) return session;
      if (MUTATING_METHODS.has(request.method)) {
        const refused = assertSameOrigin(request);
        if (refused) return refused;
      }
      const db = await getDb();
      const params = await context.params;
      if (scopeReads && request.method === "GET") {
        return await withOrganizationScope(db, session.organizationId, (tx) => handler(request, { session, db: tx, params }));
      }
      return await handler(request, { session, db, params });
    } catch (error) {
      if (error instanceof ServiceError) {
        return Response.json({ detail: error.message }, { status: STATUS_BY_SERVICE_CODE[error.code] });
      }
      logError(`[request ${requestId}] internal error`, error);
      return Response.json({ detail: `Internal error (request id ${requestId}).` }, { status: 500, headers: { "x-request-id": requestId } });
    }
  };
}

/** For handlers any signed-in member may call. */
export function withMemberRoute<Params = Record<string, never>>(handler: SessionRouteHandler<Params>) {
  return withSessionRoute(requireMemberForRoute, handler);
}

/**
 * For handlers only the organization's admins may call. Their GET handlers
 * (lists answered as JSON) run in the organization's row-level security
 * scope (db/organization-scope): even a query that forgot its organization
 * filter reads this organization's rows only. Writes are not scoped yet: some
 * must look across organizations (a reset checks the person's other memberships).
 */
export function withAdminRoute<Params = Record<string, never>>(handler: SessionRouteHandler<Params>) {
  return withSessionRoute(requireAdminForRoute, handler, true);
}

/** The JSON body of a request; a ServiceError (400) when it is not JSON. */
export async function readJsonBody(request: Request): Promise<unknown> {
  try {
    return await request.json();
  } catch {
    throw new ServiceError("invalid_input", "The request body must be JSON.");
  }
}
