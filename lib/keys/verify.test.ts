import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Db } from "@/db/client";
import { listAuditEvents } from "@/db/queries/audit-events";
import { createApiKey, listApiKeys, revokeApiKey, SANDBOX_KEY_LIFETIME_MS, type CreatedUser, OPERATOR } from "@/lib/services";
import { seedOrganization, testDatabases } from "@/test/support/databases";
import { generateApiKey } from "./format";
import { markApiKeyRevoked } from "@/db/queries/api-keys";
import { withOrganizationScope } from "@/db/scope";
import { API_KEY_CACHE_SECONDS } from "./key-cache";
import { LAST_USED_DEBOUNCE_MS, verifyApiKey } from "./verify";

/** A database stand-in that fails loudly if anything touches it. */
const untouchable = new Proxy({} as Db, {
  get(_target, property) {
    throw new Error(`database accessed (${String(property)}) for a key that should be refused before any query`);
  },
});

describe.each(testDatabases())("verifyApiKey on $name", (database) => {
  let db: Db;
  let seeded: CreatedUser;
  const queries: string[] = [];

  beforeAll(async () => {
    db = await database.open({ onQuery: (query) => queries.push(query) });
    seeded = await seedOrganization(db, { prefix: "verify" });
  });
  afterAll(() => database.close(db));

  const organizationId = () => seeded.organization.id;

  it("accepts a freshly issued key and reports its organization and kind", async () => {
    const { key, record } = await createApiKey(db, { createdBy: OPERATOR, organizationId: organizationId(), kind: "production" });
    const result = await verifyApiKey(db, key);
    expect(result).toEqual({
      ok: true,
      key: { id: record.id, organizationId: organizationId(), kind: "production", expiresAt: null },
    });
  });

  it("says missing for an absent header and malformed for garbage, without a query", async () => {
    const before = queries.length;
    expect(await verifyApiKey(db, undefined)).toEqual({ ok: false, reason: "missing" });
    expect(await verifyApiKey(db, null)).toEqual({ ok: false, reason: "missing" });
    expect(await verifyApiKey(db, "")).toEqual({ ok: false, reason: "missing" });
    expect(await verifyApiKey(db, "Bearer abc")).toEqual({ ok: false, reason: "malformed" });
    expect(queries.length).toBe(before);
  });

  it("refuses a key with a bad checksum with zero database queries", async () => {
    const { key } = await createApiKey(db, { createdBy: OPERATOR, organizationId: organizationId(), kind: "sandbox" });
    const last = key.at(-1) === "0" ? "1" : "0";
    const typo = key.slice(0, -1) + last;
    const before = queries.length;
    expect(await verifyApiKey(db, typo)).toEqual({ ok: false, reason: "malformed" });
    expect(queries.length).toBe(before);
    expect(await verifyApiKey(untouchable, typo)).toEqual({ ok: false, reason: "malformed" });
    // The same counter does see a well-formed key's lookup, so zero above means zero.
    await verifyApiKey(db, generateApiKey("sandbox"));
    expect(queries.length).toBeGreaterThan(before);
  });

  it("says unknown for a well-formed key that was never issued", async () => {
    expect(await verifyApiKey(db, generateApiKey("production"))).toEqual({ ok: false, reason: "unknown" });
  });

  it("refuses a key from the very next request after revocation and audits the attempt", async () => {
    const { key, record } = await createApiKey(db, { createdBy: OPERATOR, organizationId: organizationId(), kind: "production" });
    expect((await verifyApiKey(db, key)).ok).toBe(true);
    expect(await revokeApiKey(db, { revokedBy: OPERATOR, organizationId: organizationId(), keyId: record.id })).toBe(true);
    expect(await verifyApiKey(db, key)).toEqual({ ok: false, reason: "revoked" });

    const events = await listAuditEvents(db, { organizationId: organizationId() });
    const failure = events.find((event) => event.action === "auth.failed" && event.target === record.id);
    expect(failure).toMatchObject({ actor: record.id, detail: { reason: "revoked", start: record.start } });
    expect(JSON.stringify(failure)).not.toContain(key);
  });

  it("trusts a key found valid for API_KEY_CACHE_SECONDS without looking it up again", async () => {
    const { key } = await createApiKey(db, { createdBy: OPERATOR, organizationId: organizationId(), kind: "production" });
    const lookUps = () => queries.filter((query) => /from "api_keys" where "api_keys"."digest"/i.test(query)).length;
    const start = new Date();
    const before = lookUps();
    expect((await verifyApiKey(db, key, start)).ok).toBe(true);
    expect((await verifyApiKey(db, key, new Date(start.getTime() + API_KEY_CACHE_SECONDS * 1000 - 1))).ok).toBe(true);
    expect(lookUps()).toBe(before + 1);
    expect((await verifyApiKey(db, key, new Date(start.getTime() + API_KEY_CACHE_SECONDS * 1000))).ok).toBe(true);
    expect(lookUps()).toBe(before + 2);
  });

  it("refuses a key revoked by another instance (not through this process) within API_KEY_CACHE_SECONDS", async () => {
    const { key, record } = await createApiKey(db, { createdBy: OPERATOR, organizationId: organizationId(), kind: "production" });
    const start = new Date();
    expect((await verifyApiKey(db, key, start)).ok).toBe(true);
    // What another process's revokeApiKey writes; this process's cache is not told.
    await withOrganizationScope(organizationId(), () => markApiKeyRevoked(db, { organizationId: organizationId(), keyId: record.id, now: start }));
    expect((await verifyApiKey(db, key, new Date(start.getTime() + API_KEY_CACHE_SECONDS * 1000))).ok).toBe(false);
  });

  it("expires a cached sandbox key on time", async () => {
    const issued = new Date("2031-04-20T10:00:00.000Z");
    const { key } = await createApiKey(db, { createdBy: OPERATOR, organizationId: organizationId(), kind: "sandbox", now: issued });
    const expiry = issued.getTime() + SANDBOX_KEY_LIFETIME_MS;
    expect((await verifyApiKey(db, key, new Date(expiry - 1))).ok).toBe(true);
    expect(await verifyApiKey(db, key, new Date(expiry))).toEqual({ ok: false, reason: "expired" });
  });

  it("expires a sandbox key exactly 28 days after issue", async () => {
    const issued = new Date("2031-03-20T10:00:00.000Z");
    const { key, record } = await createApiKey(db, { createdBy: OPERATOR, organizationId: organizationId(), kind: "sandbox", now: issued });
    const expiry = issued.getTime() + 28 * 24 * 60 * 60 * 1000;
    expect(SANDBOX_KEY_LIFETIME_MS).toBe(28 * 24 * 60 * 60 * 1000);
    expect(record.expiresAt?.getTime()).toBe(expiry);

    const justBefore = await verifyApiKey(db, key, new Date(expiry - 1));
    expect(justBefore).toEqual({
      ok: true,
      key: { id: record.id, organizationId: organizationId(), kind: "sandbox", expiresAt: new Date(expiry) },
    });
    expect(await verifyApiKey(db, key, new Date(expiry))).toEqual({ ok: false, reason: "expired" });

    const events = await listAuditEvents(db, { organizationId: organizationId() });
    expect(events.some((e) => e.action === "auth.failed" && e.target === record.id && e.detail.reason === "expired")).toBe(true);
  });

  it("never expires a production key", async () => {
    const { key } = await createApiKey(db, { createdBy: OPERATOR, organizationId: organizationId(), kind: "production" });
    const farFuture = new Date(Date.now() + 100 * 365 * 24 * 60 * 60 * 1000);
    expect((await verifyApiKey(db, key, farFuture)).ok).toBe(true);
  });

  it("writes last_used_at at most once per debounce interval", async () => {
    const { key, record } = await createApiKey(db, { createdBy: OPERATOR, organizationId: organizationId(), kind: "production" });
    const start = new Date();
    const updates = () => queries.filter((query) => /^update "api_keys" set "last_used_at"/i.test(query)).length;
    const before = updates();
    await verifyApiKey(db, key, start);
    await verifyApiKey(db, key, new Date(start.getTime() + 1_000));
    await verifyApiKey(db, key, new Date(start.getTime() + LAST_USED_DEBOUNCE_MS - 1));
    expect(updates()).toBe(before + 1);
    await verifyApiKey(db, key, new Date(start.getTime() + LAST_USED_DEBOUNCE_MS));
    expect(updates()).toBe(before + 2);
    const [listed] = (await listApiKeys(db, { organizationId: organizationId() })).filter((k) => k.id === record.id);
    expect(listed?.lastUsedAt?.getTime()).toBe(start.getTime() + LAST_USED_DEBOUNCE_MS);
  });
});
