import "server-only";
import { randomUUID } from "node:crypto";
import { withOrganizationScope } from "@/db/scope";
import { REQUEST_ID_HEADER, responseOfError } from "./error-response";

/** What a route's caller gets to know before the handler runs: its request id, and headers every answer carries. */
interface RouteResponse {
  requestId: string;
  /** Set by the authentication step (e.g. RateLimit); added to the answer, the handler's or an error's. */
  headers: Headers;
}

/**
 * How a family of routes knows its caller: the caller's context for the
 * handler, or a Response that refuses the request. It may throw an ApiError
 * (e.g. 401, 429), which becomes its answer like any other error.
 */
export type Authenticate<Caller> = (request: Request, response: RouteResponse) => Promise<Caller | Response>;

export type RouteHandler<Caller, Params> = (request: Request, context: Caller & { params: Params; requestId: string }) => Promise<Response>;

/** What Next passes a route handler as its second argument (absent for a route without dynamic segments when called directly). */
export type NextRouteContext<Params> = { params: Promise<Params> };

/**
 * The one route wrapper; its families (keyed API, signed-in member, admin)
 * differ only in `authenticate`. In this order: request id → authenticate →
 * handler, in the caller's organization's row-level security scope
 * (db/scope.ts: its queries see that organization's rows only) → one catch that turns anything thrown into its status with
 * `{"detail"}` (lib/http/error-response). Every answer carries the request id, and
 * `Cache-Control: no-store` unless the handler chose otherwise.
 */
export function withRoute<Caller>(authenticate: Authenticate<Caller>, organizationOf: (caller: Caller) => string) {
  return <Params>(handle: RouteHandler<Caller, Params>) =>
    async (request: Request, context?: NextRouteContext<Params>): Promise<Response> => {
      const requestId = randomUUID();
      const headers = new Headers();
      let response: Response;
      try {
        const caller = await authenticate(request, { requestId, headers });
        if (caller instanceof Response) response = caller;
        else {
          const params = (await context?.params) as Params;
          response = await withOrganizationScope(organizationOf(caller), () => handle(request, { ...caller, params, requestId }));
        }
      } catch (error) {
        response = responseOfError(error, requestId);
      }
      for (const [name, value] of headers) response.headers.set(name, value);
      response.headers.set(REQUEST_ID_HEADER, requestId);
      // Every answer of these routes is one organization's data (extracted fields, members, keys): no cache keeps it.
      if (!response.headers.has("cache-control")) response.headers.set("cache-control", "no-store");
      return response;
    };
}
