import "server-only";
import { ApiError } from "@/lib/errors";

const IDEMPOTENCY_KEY_HEADER = "idempotency-key";
/** Printable ASCII, as the IETF Idempotency-Key draft's examples; long enough for a UUID or a client's own scheme. */
const IDEMPOTENCY_KEY_PATTERN = /^[\x21-\x7e]{1,255}$/;

/** The request's Idempotency-Key, undefined when absent; 400 when malformed. */
export function idempotencyKeyOf(request: Request): string | undefined {
  const key = request.headers.get(IDEMPOTENCY_KEY_HEADER);
  if (key === null) return undefined;
  if (!IDEMPOTENCY_KEY_PATTERN.test(key)) {
    throw new ApiError("invalid_input", "The Idempotency-Key header must be 1 to 255 printable ASCII characters (a UUID is a good choice).");
  }
  return key;
}
