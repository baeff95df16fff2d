import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { ApiError } from "@/lib/errors";
import { resolveWithDns } from "@/lib/api/guarded-agent";
import { fetchDocument, setUrlFetchOverridesForTests, type UrlFetchLimits } from "@/lib/api/url-fetch";
import { makePdf } from "../support/api-fixtures";
import { startCanary, startDocumentOrigin, type Canary, type DocumentOrigin } from "../support/loopback-servers";

const MAX_BYTES = 1024 * 1024;
const LIMITS: UrlFetchLimits = { maxBytes: MAX_BYTES, timeoutMs: 10_000, maxRedirects: 3 };

/** The injected resolver: two hostile names, everything else through the real resolver. */
const STUB_DNS: Record<string, string[]> = {
  "evil.test": ["127.0.0.1"],
  "mixed.test": ["8.8.8.8", "10.0.0.1"],
  "mapped.test": ["::ffff:169.254.169.254"],
};
const resolveStub = async (name: string) => {
  if (name === "nowhere.test") throw Object.assign(new Error(`getaddrinfo ENOTFOUND ${name}`), { code: "ENOTFOUND" });
  return STUB_DNS[name] ?? resolveWithDns(name);
};

const NOT_PUBLIC = /^The url's host .+ is not a public internet address\.$/;
const RESOLVES_PRIVATE = /^The url's host .+ does not resolve to a public internet address\.$/;

let canary: Canary;
let origin: DocumentOrigin;
let pdf: Uint8Array;

beforeAll(async () => {
  canary = await startCanary();
  pdf = await makePdf([["A small document"]]);
  origin = await startDocumentOrigin({ pdf, canaryPort: canary.port, bombBytes: MAX_BYTES * 4 });
  setUrlFetchOverridesForTests({ resolve: resolveStub, trustedOrigin: origin.origin });
});

afterAll(async () => {
  setUrlFetchOverridesForTests({});
  await canary?.close();
  await origin?.close();
});

afterEach(() => {
  // Whatever a case did, nothing may have reached a loopback listener.
  expect(canary.connections()).toBe(0);
});

/** A store that keeps the body in memory, for comparing bytes (the API's store is chunked storage). */
async function collect(body: AsyncIterable<Uint8Array>): Promise<Buffer> {
  const pieces: Uint8Array[] = [];
  for await (const piece of body) pieces.push(piece);
  return Buffer.concat(pieces);
}

async function refusal(url: string, limits: UrlFetchLimits = LIMITS): Promise<{ status: number; detail: string }> {
  const error = await fetchDocument(url, limits, collect).then(
    () => undefined,
    (e: unknown) => e,
  );
  if (!(error instanceof ApiError)) throw new Error(`expected a refusal for ${url}, got ${String(error)}`);
  return { status: error.status, detail: error.message };
}

describe("url input refusals (security checklist §1, §7 rows 1-10)", () => {
  it.each([
    "http://127.1/",
    "http://0x7f000001/",
    "http://2130706433/",
    "http://0177.0.0.1/",
    "http://0/",
    "http://[::1]/",
    "http://[::ffff:7f00:1]/",
    "http://[::ffff:127.0.0.1]/",
    "http://[::]/",
    "http://[fd00::1]/",
    "http://[fe80::1]/",
    "http://[64:ff9b::7f00:1]/",
    "http://169.254.169.254/latest/meta-data/",
    "http://100.64.0.1/",
    "http://10.0.0.1/",
    "http://192.168.1.1/",
    "http://172.16.0.1/",
    "https://127.0.0.1/doc.pdf",
  ])("refuses the non-public literal %s with 400", async (url) => {
    const { status, detail } = await refusal(url);
    expect(status).toBe(400);
    expect(detail).toMatch(NOT_PUBLIC);
  });

  it.each(["http://localhost/", "http://LOCALHOST/doc.pdf", "http://evil.test/", "http://mixed.test/", "http://mapped.test/"])(
    "refuses %s, whose name resolves to a non-public address, with 400",
    async (url) => {
      const { status, detail } = await refusal(url);
      expect(status).toBe(400);
      expect(detail).toMatch(RESOLVES_PRIVATE);
    },
  );

  it("refuses localhost. (trailing dot) whether or not the resolver knows it", async () => {
    expect(await refusal("http://localhost./")).toEqual({ status: 400, detail: "The url's host localhost. does not resolve to a public internet address." });
  });

  it("answers a name that does not resolve exactly as one that resolves to a private address, so internal names cannot be probed", async () => {
    expect(await refusal("http://nowhere.test/doc.pdf")).toEqual({ status: 400, detail: "The url's host nowhere.test does not resolve to a public internet address." });
    expect(await refusal("http://evil.test/doc.pdf")).toEqual({ status: 400, detail: "The url's host evil.test does not resolve to a public internet address." });
  });

  it("refuses an IPv4-compatible IPv6 literal (::/96) as not public", async () => {
    expect(await refusal("http://[::127.0.0.1]/")).toEqual({ status: 400, detail: "The url's host ::7f00:1 is not a public internet address." });
  });

  it.each([
    ["file:///etc/passwd", "file"],
    ["gopher://127.0.0.1:6379/_INFO", "gopher"],
    ["data:application/pdf;base64,JVBERi0xLjQK", "data"],
    ["ftp://example.com/doc.pdf", "ftp"],
  ])("refuses the scheme of %s with 400", async (url, scheme) => {
    expect(await refusal(url)).toEqual({ status: 400, detail: `The url must use http or https, not ${scheme}.` });
  });

  it("refuses a user name and password with 400", async () => {
    expect(await refusal("http://user:pass@example.com/doc.pdf")).toEqual({
      status: 400,
      detail: "The url must not contain a user name or password.",
    });
  });

  it("refuses ports other than 80 and 443 with 400", async () => {
    expect(await refusal("http://127.0.0.1:6379/")).toEqual({ status: 400, detail: "The url must use port 80 or 443, not 6379." });
    expect(await refusal("https://example.com:8443/doc.pdf")).toEqual({
      status: 400,
      detail: "The url must use port 80 or 443, not 8443.",
    });
  });

  it("refuses text that is not an absolute url with 400", async () => {
    expect(await refusal("not a url")).toEqual({
      status: 400,
      detail: "The url field is not a valid absolute URL (e.g. https://example.com/bl.pdf).",
    });
  });
});

describe("redirects from the trusted test origin are vetted hop by hop", () => {
  it("refuses a redirect to another loopback port", async () => {
    expect(await refusal(`${origin.origin}/to-canary`)).toEqual({
      status: 400,
      detail: `The url's redirect target must use port 80 or 443, not ${canary.port}.`,
    });
  });

  it("refuses a redirect to a loopback address on the default port", async () => {
    const { status, detail } = await refusal(`${origin.origin}/to-loopback`);
    expect(status).toBe(400);
    expect(detail).toMatch(NOT_PUBLIC);
  });

  it("refuses a redirect to a name that resolves to loopback", async () => {
    const { status, detail } = await refusal(`${origin.origin}/to-name`);
    expect(status).toBe(400);
    expect(detail).toMatch(RESOLVES_PRIVATE);
  });

  it("refuses a redirect to a file: url", async () => {
    expect(await refusal(`${origin.origin}/to-file`)).toEqual({
      status: 400,
      detail: "The url's redirect target must use http or https, not file.",
    });
  });

  it("follows 3 hops but refuses a 4th", async () => {
    const fetched = await fetchDocument(`${origin.origin}/hops/3`, LIMITS, collect);
    expect(fetched.stored.equals(Buffer.from(pdf))).toBe(true);
    expect(await refusal(`${origin.origin}/hops/4`)).toEqual({
      status: 422,
      detail: "Could not fetch the url: more than 3 redirects.",
    });
  });
});

describe("what a fetched body may be", () => {
  it("fetches a PDF from the trusted origin, dropping the query string from its name", async () => {
    const fetched = await fetchDocument(`${origin.origin}/doc.pdf?signature=secret`, LIMITS, collect);
    expect(fetched.stored.equals(Buffer.from(pdf))).toBe(true);
    expect(fetched.name).toBe(`${origin.origin}/doc.pdf`);
    expect(fetched.declaredType).toBe("application/pdf");
  });

  it("cuts a gzip bomb at the decoded cap with 413", async () => {
    expect(await refusal(`${origin.origin}/bomb`)).toEqual({
      status: 413,
      detail: "The document at the url is larger than 1 MB.",
    });
  });

  it("a failure of the store the body streams into is the server's, never taken for the url's (no 4XX)", async () => {
    const storeDown = new Error("the database is gone");
    const failing = async (body: AsyncIterable<Uint8Array>) => {
      for await (const piece of body) if (piece.byteLength > 0) throw storeDown;
    };
    await expect(fetchDocument(`${origin.origin}/doc.pdf`, LIMITS, failing)).rejects.toBe(storeDown);
  });

  it("refuses text/html with 415", async () => {
    expect(await refusal(`${origin.origin}/html`)).toEqual({
      status: 415,
      detail: "The url serves text/html; send a PDF, DOCX, EML, PNG, JPEG, TIFF or WebP document.",
    });
  });

  it("reports an error status from the server as 422", async () => {
    expect(await refusal(`${origin.origin}/missing.pdf`)).toEqual({
      status: 422,
      detail: "Could not fetch the url: the server answered 404.",
    });
  });

  it("gives up on a body that never ends at the deadline with 422", async () => {
    expect(await refusal(`${origin.origin}/slow`, { ...LIMITS, timeoutMs: 500 })).toEqual({
      status: 422,
      detail: "Could not fetch the url: no complete answer within 0.5 s.",
    });
  });

  it("ignores HTTP_PROXY: a proxy on loopback sees no request", async () => {
    const previous = process.env.HTTP_PROXY;
    process.env.HTTP_PROXY = `http://127.0.0.1:${canary.port}`;
    try {
      const fetched = await fetchDocument(`${origin.origin}/untyped`, LIMITS, collect);
      expect(fetched.declaredType).toBeUndefined();
    } finally {
      if (previous === undefined) delete process.env.HTTP_PROXY;
      else process.env.HTTP_PROXY = previous;
    }
  });
});
