// No `server-only` marker: the job worker, the CLIs and the benches load it outside the react-server condition.
import { DrizzleQueryError } from "drizzle-orm";

/**
 * What a server log line may say about an error: its name, its code and the
 * first line of its message. Never the stack or the whole error object:
 * drizzle writes a failed query's parameters into its message (e-mails,
 * password and key digests, a document's text and hash), and a driver's
 * `detail` repeats the offending values. For a failed query the driver's own
 * error (the cause) is described: its SQLSTATE code and message name the
 * constraint or column without the values.
 */
const MAX_MESSAGE_LENGTH = 200;
/** How DrizzleQueryError's message begins; the query and its parameters follow. */
const QUERY_ERROR_PREFIX = "Failed query: ";

interface Described {
  name: string;
  code?: string;
  message: string;
}

/**
 * drizzle's wrapper of a failed query, told by its shape as well as its class:
 * the Next build holds two copies of drizzle-orm, so a query of the other copy
 * fails with an error that is no instance of this copy's DrizzleQueryError
 * (and the class has no entity kind for drizzle's own `is()`).
 */
function isQueryError(error: unknown): error is DrizzleQueryError {
  if (error instanceof DrizzleQueryError) return true;
  // PGlite's own errors carry `query` and `params` too, but their message is the driver's, with its code beside it.
  return error instanceof Error && typeof (error as { query?: unknown }).query === "string" && error.message.startsWith(QUERY_ERROR_PREFIX);
}

function summarize(error: unknown): Described {
  if (isQueryError(error)) {
    return error.cause === undefined ? { name: "DrizzleQueryError", message: "query failed" } : summarize(error.cause);
  }
  if (!(error instanceof Error)) return { name: typeof error, message: "(not an Error)" };
  const code = (error as { code?: unknown }).code;
  const firstLine = error.message.split("\n", 1)[0]!.slice(0, MAX_MESSAGE_LENGTH);
  return { name: error.name, code: typeof code === "string" || typeof code === "number" ? String(code) : undefined, message: firstLine };
}

/** "name [code]: message" of an error, safe for a log line. */
export function describeError(error: unknown): string {
  const { name, code, message } = summarize(error);
  return `${name}${code ? ` [${code}]` : ""}: ${message}`;
}

/** Logs `context` (ids only: a request id, a key id) with the error described safely. */
export function logError(context: string, error: unknown): void {
  console.error(`${context}: ${describeError(error)}`);
}
