/** A failed call to one of our JSON route handlers, carrying the server's `detail`. */
export class RequestError extends Error {
  constructor(
    readonly status: number,
    message: string,
  ) {
    super(message);
    this.name = "RequestError";
  }
}

/**
 * Client-side fetch for our `{"detail"}` route handlers (use it as a TanStack
 * Query queryFn / mutationFn). Sends JSON, same-origin cookies, and throws a
 * RequestError with the server's own words on any non-2xx answer.
 */
export async function fetchJson<T>(url: string, init: { method?: string; body?: unknown; signal?: AbortSignal } = {}): Promise<T> {
  let response: Response;
  try {
    response = await fetch(url, {
      method: init.method ?? "GET",
      headers: init.body === undefined ? undefined : { "content-type": "application/json" },
      body: init.body === undefined ? undefined : JSON.stringify(init.body),
      credentials: "same-origin",
      signal: init.signal,
    });
  } catch (error) {
    if (error instanceof DOMException && error.name === "AbortError") throw error;
    throw new RequestError(0, "The server could not be reached. Check your connection and try again.");
  }
  const body: unknown = response.status === 204 ? null : await response.json().catch(() => null);
  if (!response.ok) {
    const detail = body && typeof body === "object" && "detail" in body ? String(body.detail) : undefined;
    throw new RequestError(response.status, detail ?? `The server answered ${response.status}.`);
  }
  return body as T;
}
