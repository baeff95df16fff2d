import "server-only";
import { fetch, type Response as UndiciResponse } from "undici";
import { FORMAT_MIME_TYPES } from "@/lib/analysis";
import { ApiError } from "@/lib/errors";
import { createGuardedAgent, resolveWithDns, type ResolveHost } from "./guarded-agent";
import { ipLiteralOf, isPublicAddress } from "./public-address";

const ALLOWED_PROTOCOLS = new Set(["http:", "https:"]);
/** `URL` drops a scheme's default port, so "" is 80 for http and 443 for https. */
const ALLOWED_PORTS = new Set(["", "80", "443"]);
const REDIRECT_STATUSES = new Set([301, 302, 303, 307, 308]);
/** Declared types we accept before sniffing; octet-stream leaves the decision to the bytes. */
export const OPAQUE_CONTENT_TYPE = "application/octet-stream";
export const FETCHABLE_CONTENT_TYPES: ReadonlySet<string> = new Set([
  ...Object.values(FORMAT_MIME_TYPES),
  OPAQUE_CONTENT_TYPE,
]);
const ACCEPT_HEADER = [...FETCHABLE_CONTENT_TYPES].join(", ");

export interface UrlFetchLimits {
  /** Largest decoded body accepted. */
  maxBytes: number;
  /** Deadline for the whole fetch: every hop, headers and body. */
  timeoutMs: number;
  maxRedirects: number;
  /**
   * Called once the document's answer is accepted, before its body is read,
   * with the bytes it will hold: its declared length, or `maxBytes` when none
   * is declared. Throws to refuse it (the upload budget).
   */
  reserve?: (bytes: number) => void;
}

export interface FetchedDocument<T> {
  /** Origin and path of the url as given: the query string may hold a signed credential, so it is dropped. */
  name: string;
  /** What the caller's store made of the body (analyze: its upload in chunked storage). */
  stored: T;
  /** The media type the server declared, lower-case, without parameters; undefined when absent. */
  declaredType: string | undefined;
}

interface UrlFetchTestOverrides {
  resolve?: ResolveHost;
  trustedOrigin?: string;
}

let testOverrides: UrlFetchTestOverrides = {};

/**
 * Test-only hook: a stub resolver, and one loopback origin
 * (`http://127.0.0.1:PORT`) that may serve documents or receive webhooks, so
 * the success path can run without the internet. Redirects away from it are
 * vetted as usual. No production code path calls this.
 */
export function setUrlFetchOverridesForTests(overrides: UrlFetchTestOverrides): void {
  const origin = overrides.trustedOrigin;
  if (origin !== undefined) {
    const literal = ipLiteralOf(new URL(origin).hostname);
    if (literal === undefined || isPublicAddress(literal) || new URL(origin).origin !== origin) {
      throw new Error(`trustedOrigin must be a loopback origin such as http://127.0.0.1:PORT, got ${origin}`);
    }
  }
  testOverrides = overrides;
}

function parseUrl(text: string, role = "url field", example = "https://example.com/bl.pdf"): URL {
  try {
    return new URL(text);
  } catch {
    throw new ApiError("invalid_input", `The ${role} is not a valid absolute URL (e.g. ${example}).`);
  }
}

/** The rules a URL can be held to before any connection: scheme, credentials, port. */
function checkUrl(url: URL, role: string): void {
  if (!ALLOWED_PROTOCOLS.has(url.protocol)) {
    throw new ApiError("invalid_input", `The ${role} must use http or https, not ${url.protocol.slice(0, -1)}.`);
  }
  if (url.username !== "" || url.password !== "") {
    throw new ApiError("invalid_input", `The ${role} must not contain a user name or password.`);
  }
  if (!ALLOWED_PORTS.has(url.port) && url.origin !== testOverrides.trustedOrigin) {
    throw new ApiError("invalid_input", `The ${role} must use port 80 or 443, not ${url.port}.`);
  }
}

function nextHop(from: URL, location: string | null): URL {
  if (!location) throw new ApiError("unprocessable", "Could not fetch the url: a redirect had no Location header.");
  let target: URL;
  try {
    target = new URL(location, from);
  } catch {
    throw new ApiError("unprocessable", "Could not fetch the url: a redirect pointed to an invalid address.");
  }
  checkUrl(target, "url's redirect target");
  if (from.protocol === "https:" && target.protocol === "http:") {
    throw new ApiError("invalid_input", "The url redirected from https to http; only https targets are followed from https.");
  }
  return target;
}

function mediaTypeOf(contentType: string | null): string | undefined {
  const type = contentType?.split(";")[0]?.trim().toLowerCase();
  return type === "" ? undefined : type;
}

/**
 * The most bytes the body will hold once decoded: its Content-Length when it
 * is sent as is; `maxBytes` when no length is declared or the body is encoded
 * (a compressed body's length says nothing of its decoded size).
 */
function bytesToHold(response: UndiciResponse, maxBytes: number): number {
  const declared = response.headers.get("content-length");
  const encoding = response.headers.get("content-encoding");
  if (declared === null || (encoding !== null && encoding.trim().toLowerCase() !== "identity")) return maxBytes;
  const length = Number(declared);
  return Number.isFinite(length) && length >= 0 ? Math.min(length, maxBytes) : maxBytes;
}

function tooLarge(maxBytes: number): ApiError {
  return new ApiError("payload_too_large", `The document at the url is larger than ${maxBytes / 2 ** 20} MB.`);
}

/**
 * The body as it arrives, counting decoded bytes (fetch inflates gzip
 * itself, so a bomb only shows after decoding). Its own failures — over the
 * cap, cut off, past the deadline — are thrown as the url's ApiErrors, so
 * that the store consuming it fails with them, while a failure of the store
 * itself stays the server's.
 */
async function* cappedBody(response: UndiciResponse, maxBytes: number, failure: (error: unknown) => ApiError): AsyncGenerator<Uint8Array> {
  if (!response.body) return;
  let total = 0;
  try {
    for await (const chunk of response.body) {
      total += chunk.byteLength;
      if (total > maxBytes) throw tooLarge(maxBytes);
      yield chunk;
    }
  } catch (error) {
    throw failure(error);
  }
}

/** Finds our refusal inside fetch's "fetch failed" wrapper, or words a network failure for the caller. */
function apiErrorOf(error: unknown, signal: AbortSignal, timeoutMs: number, attempted = "fetch the url"): ApiError {
  if (error instanceof ApiError) return error;
  if (signal.aborted) return new ApiError("unprocessable", `Could not ${attempted}: no complete answer within ${timeoutMs / 1000} s.`);
  const cause = error instanceof Error ? error.cause : undefined;
  if (cause instanceof ApiError) return cause;
  const reason = (cause as { code?: string } | undefined)?.code ?? (error instanceof Error ? error.message : "unknown error");
  return new ApiError("unprocessable", `Could not ${attempted}: ${reason}.`);
}

/**
 * Fetches a caller-supplied document safely (security checklist §1): vetted
 * scheme, port and credentials, every connection pinned to a public address,
 * manual redirects re-checked each hop, no https→http, a total deadline, a
 * decoded-size cap and a Content-Type allow-list. The body is never held
 * whole: it streams into `store` (analyze: chunked storage) as it arrives,
 * and the caller sniffs what was stored. Environment proxies are ignored: the
 * agent is used directly.
 */
export async function fetchDocument<T>(text: string, limits: UrlFetchLimits, store: (body: AsyncIterable<Uint8Array>) => Promise<T>): Promise<FetchedDocument<T>> {
  const first = parseUrl(text);
  checkUrl(first, "url");
  const agent = createGuardedAgent({
    resolve: testOverrides.resolve ?? resolveWithDns,
    trustedOrigin: testOverrides.trustedOrigin,
  });
  const signal = AbortSignal.timeout(limits.timeoutMs);
  const failure = (error: unknown) => apiErrorOf(error, signal, limits.timeoutMs);
  try {
    const { response, declaredType } = await acceptedResponse(first, agent, signal, limits).catch((error: unknown) => Promise.reject(failure(error)));
    limits.reserve?.(bytesToHold(response, limits.maxBytes));
    if (Number(response.headers.get("content-length")) > limits.maxBytes) throw tooLarge(limits.maxBytes);
    const stored = await store(cappedBody(response, limits.maxBytes, failure));
    return { name: first.origin + first.pathname, stored, declaredType };
  } finally {
    // Closes any socket left open by a refused or aborted body.
    await agent.destroy();
  }
}

/** The answer that carries the document, after the redirects: a success of a type we read (refusals as ApiErrors or fetch's own). */
async function acceptedResponse(
  first: URL,
  agent: ReturnType<typeof createGuardedAgent>,
  signal: AbortSignal,
  limits: UrlFetchLimits,
): Promise<{ response: UndiciResponse; declaredType: string | undefined }> {
  let url = first;
  for (let hop = 0; ; hop++) {
    const response = await fetch(url, { dispatcher: agent, redirect: "manual", signal, headers: { accept: ACCEPT_HEADER } });
    if (REDIRECT_STATUSES.has(response.status)) {
      await response.body?.cancel();
      if (hop >= limits.maxRedirects) {
        throw new ApiError("unprocessable", `Could not fetch the url: more than ${limits.maxRedirects} redirects.`);
      }
      url = nextHop(url, response.headers.get("location"));
      continue;
    }
    if (!response.ok) {
      await response.body?.cancel();
      throw new ApiError("unprocessable", `Could not fetch the url: the server answered ${response.status}.`);
    }
    const declaredType = mediaTypeOf(response.headers.get("content-type"));
    if (declaredType !== undefined && !FETCHABLE_CONTENT_TYPES.has(declaredType)) {
      await response.body?.cancel();
      throw new ApiError(
        "unsupported_media_type",
        `The url serves ${declaredType}; send a PDF, DOCX, EML, PNG, JPEG, TIFF or WebP document.`,
      );
    }
    return { response, declaredType };
  }
}

const CALLBACK_ROLE = "callback_url";
const CALLBACK_EXAMPLE = "https://erp.example.com/shipshape-hook";

/** A callback_url as given, held to the rules that need no connection (scheme, credentials, port); 400 otherwise. */
export function checkCallbackUrl(text: string): string {
  const url = parseUrl(text, CALLBACK_ROLE, CALLBACK_EXAMPLE);
  checkUrl(url, CALLBACK_ROLE);
  return url.href;
}

/**
 * Posts a JSON body to a caller-supplied address (a webhook receiver) under
 * fetchDocument's rules: vetted scheme, port and credentials, the connection
 * pinned to a public address (the same guarded agent, the same test seam),
 * a deadline, no environment proxy. Redirects are not followed: a receiver
 * answers where it was registered. Returns the receiver's status; its body is
 * not read. A refused address or a network failure throws an ApiError.
 */
export async function postJsonToUrl(text: string, body: string, headers: Record<string, string>, timeoutMs: number): Promise<number> {
  const url = parseUrl(text, CALLBACK_ROLE, CALLBACK_EXAMPLE);
  checkUrl(url, CALLBACK_ROLE);
  const agent = createGuardedAgent({
    resolve: testOverrides.resolve ?? resolveWithDns,
    trustedOrigin: testOverrides.trustedOrigin,
  });
  const signal = AbortSignal.timeout(timeoutMs);
  try {
    const response = await fetch(url, {
      method: "POST",
      dispatcher: agent,
      redirect: "manual",
      signal,
      headers: { ...headers, "content-type": "application/json" },
      body,
    });
    await response.body?.cancel();
    return response.status;
  } catch (error) {
    throw apiErrorOf(error, signal, timeoutMs, "deliver to the callback_url");
  } finally {
    await agent.destroy();
  }
}
