import { randomBytes } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Db } from "@/db/client";
import { withApiKey } from "@/lib/api/handler";
import { CLIENT_ADDRESS_HEADER } from "@/lib/auth/client-ip";
import { createApiKey, type CreatedUser, OPERATOR } from "@/lib/services";
import { seedOrganization, testDatabases } from "@/test/support/databases";
import { FAILED_LOOKUPS, verifyApiKeyFrom, type FailedLookupPolicy } from "./failed-lookups";
import { generateApiKey } from "./format";

/** An address no other test or run shares, so its bucket starts empty. */
/** A window of an hour: no token comes back while a test runs, however slow the machine. */
const SLOW: FailedLookupPolicy = { limit: 5, windowSeconds: 60 * 60 };
const LIMIT = SLOW.limit;

const freshAddress = () => `2001:db8::${randomBytes(2).toString("hex")}:${randomBytes(2).toString("hex")}`;

describe.each(testDatabases())("failed key look-ups on $name", (database) => {
  let db: Db;
  let seeded: CreatedUser;
  beforeAll(async () => {
    db = await database.open();
    seeded = await seedOrganization(db, { prefix: "key-miss" });
  });
  afterAll(() => database.close(db));

  it("refuses an address's look-ups once it failed the limit, even for a good key, and leaves other addresses alone", async () => {
    const { key } = await createApiKey(db, { createdBy: OPERATOR, organizationId: seeded.organization.id, kind: "production" });
    const guesser = freshAddress();
    const results = [];
    for (let i = 0; i < LIMIT + 3; i++) results.push(await verifyApiKeyFrom(db, generateApiKey("production"), guesser, { policy: SLOW }));
    expect(results.slice(0, LIMIT)).toEqual(Array(LIMIT).fill({ ok: false, reason: "unknown" }));
    for (const result of results.slice(LIMIT)) expect(result).toMatchObject({ ok: false, reason: "throttled" });
    // A hit would otherwise tell the guesser which guess was right.
    expect(await verifyApiKeyFrom(db, key, guesser, { policy: SLOW })).toMatchObject({ ok: false, reason: "throttled" });
    expect(await verifyApiKeyFrom(db, key, freshAddress(), { policy: SLOW })).toMatchObject({ ok: true });
  });

  it("spends nothing on good keys or on keys refused before the database", async () => {
    const { key } = await createApiKey(db, { createdBy: OPERATOR, organizationId: seeded.organization.id, kind: "production" });
    const busy = freshAddress();
    for (let i = 0; i < LIMIT + 5; i++) {
      expect((await verifyApiKeyFrom(db, key, busy, { policy: SLOW })).ok).toBe(true);
      expect(await verifyApiKeyFrom(db, "ss_live_typo", busy, { policy: SLOW })).toEqual({ ok: false, reason: "malformed" });
    }
    expect(await verifyApiKeyFrom(db, generateApiKey("production"), busy, { policy: SLOW })).toEqual({ ok: false, reason: "unknown" });
  });

  it("answers 429 with Retry-After through the API wrapper once an address has failed too often", async () => {
    const handler = withApiKey(async () => Response.json({ ok: true }), { openDb: async () => db });
    const address = freshAddress();
    const call = () => handler(new Request("http://app.test/v1/x", { method: "POST", headers: { "x-api-key": generateApiKey("sandbox"), [CLIENT_ADDRESS_HEADER]: address } }));
    // The default policy gives a token back every few seconds: keep calling until the address is refused.
    let refused = await call();
    for (let calls = 1; refused.status === 401 && calls < 3 * FAILED_LOOKUPS.limit; calls++) refused = await call();
    expect(refused.status).toBe(429);
    expect(Number(refused.headers.get("retry-after"))).toBeGreaterThanOrEqual(1);
    expect(await refused.json()).toEqual({ detail: `Too many requests with an invalid API key from this address; retry after ${refused.headers.get("retry-after")} s.` });
  });
});
