import "server-only";
import { randomUUID } from "node:crypto";
import { getDb, type Db } from "@/db/client";
import { ApiError, errorResponse, responseOfError } from "@/lib/api/errors";
import { assertSameOrigin, requireMemberForRoute, type SessionUser } from "@/lib/auth/session";
import { ServiceError, type ServiceErrorCode } from "@/lib/services/errors";

export interface MemberContext {
  db: Db;
  member: SessionUser;
}

export type MemberHandler = (request: Request, context: MemberContext) => Promise<Response>;

const STATUS_BY_SERVICE_CODE: Record<ServiceErrorCode, number> = {
  invalid_input: 400,
  forbidden: 403,
  not_found: 404,
  conflict: 409,
};

/**
 * The one wrapper of the set routes: the session is checked here, in the
 * handler itself (never only by a proxy), mutations must come from our own
 * pages, and every refusal is `{"detail"}` with its status. The organization
 * always comes from the session, never from the request.
 */
export function withMember(handle: MemberHandler, options: { mutation: boolean }): (request: Request) => Promise<Response> {
  return async (request) => {
    const requestId = randomUUID();
    try {
      const member = await requireMemberForRoute(request);
      if (member instanceof Response) return member;
      if (options.mutation) {
        const refused = assertSameOrigin(request);
        if (refused) return refused;
      }
      return await handle(request, { db: await getDb(), member });
    } catch (error) {
      if (error instanceof ServiceError) return errorResponse(STATUS_BY_SERVICE_CODE[error.code], error.message);
      // Engine refusals become 415/422, ApiErrors keep their status; anything else is a logged 500 naming the request id.
      const response = responseOfError(error, requestId);
      if (response.status >= 500) response.headers.set("x-request-id", requestId);
      return response;
    }
  };
}

/** Largest JSON body a set route accepts: a name and a date, or one correction. */
const MAX_JSON_BYTES = 16 * 1024;

/** Reads a small JSON object body; 415 for another content type, 400 for bad JSON. */
export async function readJsonBody(request: Request): Promise<Record<string, unknown>> {
  const type = request.headers.get("content-type") ?? "";
  if (!type.toLowerCase().startsWith("application/json")) {
    throw new ApiError("unsupported_media_type", "Send the request body as application/json.");
  }
  const text = await request.text();
  if (new TextEncoder().encode(text).length > MAX_JSON_BYTES) {
    throw new ApiError("payload_too_large", `The JSON body is larger than ${MAX_JSON_BYTES / 1024} KB.`);
  }
  let body: unknown;
  try {
    body = JSON.parse(text);
  } catch {
    throw new ApiError("bad_request", "The request body is not valid JSON.");
  }
  if (typeof body !== "object" || body === null || Array.isArray(body)) {
    throw new ApiError("bad_request", "The request body must be a JSON object.");
  }
  return body as Record<string, unknown>;
}
