import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import type { Db } from "@/db/client";
import { analyzeRequest } from "@/lib/api/analyze";
import { withApiKey } from "@/lib/api/handler";
import { resetEnvForTests } from "@/lib/env";
import { docx, makeDocx } from "../fixtures/formats/docx-fixtures";
import { makeEml } from "../fixtures/formats/eml-fixtures";
import { analyzeForm, analyzeRequest as request, createTestOrganization, invoicePages, makePdf } from "../support/api-fixtures";
import { testDatabases } from "../support/databases";

/**
 * Security checklist #23 and #24: seeded mutations of real documents (bit
 * flips, truncations, spliced and zeroed ranges) and prototype-polluting
 * field names. Whatever comes in, the answer is a 200 with the analyze array
 * or a 4XX `{"detail"}` that names no internals, never a 5XX; the server
 * keeps serving afterwards.
 */

const MUTATIONS_PER_FORMAT = 24;
const SEED = 20_261_123;
/** What a leaked stack trace or internal path looks like in a detail. */
const INTERNALS = /\n\s+at |node_modules|\/work\/|\.ts:\d+|TypeError|ReferenceError|SQL|select /i;

/** Small, fast, deterministic PRNG (mulberry32): the same mutations on every run. */
function seeded(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 2 ** 32;
  };
}

/** One damaged copy of `original`: the kind of damage cycles with `index`, where and how much comes from `random`. */
function mutate(original: Uint8Array, index: number, random: () => number): Uint8Array {
  const bytes = original.slice();
  const at = () => Math.floor(random() * bytes.length);
  switch (index % 4) {
    case 0: {
      for (let flips = 1 + Math.floor(random() * 16); flips > 0; flips--) bytes[at()]! ^= 1 << Math.floor(random() * 8);
      return bytes;
    }
    case 1:
      return bytes.slice(0, Math.max(1, at()));
    case 2: {
      const from = at();
      const length = Math.floor(random() * 512);
      bytes.fill(0, from, from + length);
      return bytes;
    }
    default: {
      // A range copied over another: plausible structure in the wrong place.
      const from = at();
      const to = at();
      bytes.copyWithin(to, from, from + Math.floor(random() * 2048));
      return bytes;
    }
  }
}

interface Sample {
  name: string;
  bytes: Uint8Array;
}

describe.each(testDatabases())("hostile input to POST /v1/documents/analyze on $name", (database) => {
  let db: Db;
  let key: string;
  let handle: (request: Request) => Promise<Response>;
  let originals: Sample[];

  beforeAll(async () => {
    vi.stubEnv("RATE_LIMIT_PRODUCTION", "100000");
    resetEnvForTests();
    db = await database.open();
    key = (await createTestOrganization(db)).production.key;
    handle = withApiKey(analyzeRequest, { openDb: async () => db });
    const pdf = await makePdf(invoicePages());
    originals = [
      { name: "invoice.pdf", bytes: pdf },
      {
        name: "packing.docx",
        bytes: makeDocx([docx.paragraph("PACKING LIST", { size: 16 }), docx.table([["Marks", "Packages", "Gross weight"], ["ACME 1-20", "20 CTNS", "1,250 KGS"]])]),
      },
      {
        name: "presentation.eml",
        bytes: new TextEncoder().encode(
          makeEml({ subject: "Documents under LC 4471", body: "Please find the documents attached.", attachments: [{ filename: "invoice.pdf", contentType: "application/pdf", data: pdf }] }),
        ),
      },
    ];
  });
  afterAll(async () => {
    vi.unstubAllEnvs();
    resetEnvForTests();
    if (db) await database.close(db);
  });

  async function expectCleanAnswer(sample: Sample): Promise<number> {
    const response = await handle(request(analyzeForm({ file: { bytes: sample.bytes, name: sample.name } }), { key }));
    const body = (await response.json()) as unknown;
    if (response.status === 200) {
      expect(Array.isArray(body)).toBe(true);
      return 200;
    }
    expect(response.status, `${sample.name}: ${JSON.stringify(body)}`).toBeGreaterThanOrEqual(400);
    expect(response.status, `${sample.name}: ${JSON.stringify(body)}`).toBeLessThan(500);
    expect(Object.keys(body as object)).toEqual(["detail"]);
    const detail = (body as { detail: unknown }).detail;
    expect(typeof detail).toBe("string");
    expect((detail as string).length).toBeGreaterThan(10);
    expect(detail).not.toMatch(INTERNALS);
    return response.status;
  }

  it.each(["pdf", "docx", "eml"])("answers every damaged %s with 200 or a clean 4XX, then serves the intact one", async (format) => {
    const original = originals.find((s) => s.name.endsWith(format))!;
    const random = seeded(SEED + format.length);
    const statuses = new Map<number, number>();
    for (let i = 0; i < MUTATIONS_PER_FORMAT; i++) {
      const status = await expectCleanAnswer({ name: original.name, bytes: mutate(original.bytes, i, random) });
      statuses.set(status, (statuses.get(status) ?? 0) + 1);
    }
    // The damage must really have been refused sometimes: a fuzz that only ever succeeds tests nothing.
    expect([...statuses.keys()].some((status) => status >= 400)).toBe(true);
    expect(await expectCleanAnswer(original)).toBe(200);
  });

  it("takes no prototype from field names, JSON keys or e-mail headers", async () => {
    const form = analyzeForm({ file: { bytes: originals[0]!.bytes, name: "invoice.pdf" } });
    form.append("__proto__", '{"polluted":"yes"}');
    const refused = await handle(request(form, { key }));
    expect(refused.status).toBe(400);
    expect(await refused.json()).toEqual({ detail: expect.stringContaining("__proto__") });

    const headers = ["From: docs@presenting.example", "__proto__: polluted", "constructor: polluted", "Subject: prototype", "MIME-Version: 1.0"].join("\r\n");
    const eml = new TextEncoder().encode(`${headers}\r\nContent-Type: text/plain\r\n\r\nCOMMERCIAL INVOICE\r\nInvoice No. 4471\r\n`);
    expect(await expectCleanAnswer({ name: "headers.eml", bytes: eml })).toBe(200);

    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
    expect((Object.prototype as Record<string, unknown>).polluted).toBeUndefined();
  });
});
