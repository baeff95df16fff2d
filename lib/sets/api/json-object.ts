import "server-only";
import { ApiError } from "@/lib/errors";
import { parseJsonText } from "@/lib/http/json-text";

/** Largest JSON body a set route accepts: a name and a date, or one correction. */
const MAX_JSON_BYTES = 16 * 1024;

/** Reads a small JSON object body; 415 for another content type, 400 for bad JSON. */
export async function readJsonObject(request: Request): Promise<Record<string, unknown>> {
  const type = request.headers.get("content-type") ?? "";
  if (!type.toLowerCase().startsWith("application/json")) {
    throw new ApiError("unsupported_media_type", "Send the request body as application/json.");
  }
  const text = await request.text();
  if (new TextEncoder().encode(text).length > MAX_JSON_BYTES) {
    throw new ApiError("payload_too_large", `The JSON body is larger than ${MAX_JSON_BYTES / 1024} KB.`);
  }
  const body = parseJsonText(text, "The request body is not valid JSON.");
  if (typeof body !== "object" || body === null || Array.isArray(body)) {
    throw new ApiError("invalid_input", "The request body must be a JSON object.");
  }
  return body as Record<string, unknown>;
}
