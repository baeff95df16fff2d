import { buildOpenApiDocument } from "@/lib/api/openapi";

/** GET /v1/openapi.json — the API description; public, like the reference page built from it. */
export function GET(): Response {
  return Response.json(buildOpenApiDocument());
}
