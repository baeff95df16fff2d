import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { DELETE as deleteKey } from "@/app/api/admin/keys/[id]/route";
import { GET as getKeys, POST as postKey } from "@/app/api/admin/keys/route";
import { closeDb, type Db } from "@/db/client";
import { verifyApiKey } from "@/lib/keys";
import { createApiKey, createUser, type CreatedUser, OPERATOR } from "@/lib/services";
import { appRequest, configureAuthEnv, sessionCookie, useAppDatabase } from "@/test/auth/support";
import { seedOrganization, testDatabases, TEST_PASSWORD } from "@/test/support/databases";

configureAuthEnv();

const noParams = { params: Promise.resolve({}) };
const idParams = (id: string) => ({ params: Promise.resolve({ id }) });

describe.each(testDatabases())("admin key routes on $name", (database) => {
  let db: Db;
  let admin: CreatedUser;
  let adminCookie: string;
  let memberCookie: string;

  beforeAll(async () => {
    db = await useAppDatabase(database);
    admin = await seedOrganization(db);
    adminCookie = await sessionCookie({ userId: admin.user.id, organizationId: admin.organization.id });
    const member = await createUser(db, { actor: OPERATOR,
      email: `member-${admin.organization.slug}@example.test`,
      password: TEST_PASSWORD,
      orgSlug: admin.organization.slug,
      role: "member",
    });
    memberCookie = await sessionCookie({ userId: member.user.id, organizationId: admin.organization.id });
  });
  afterAll(() => closeDb());

  it("answers 401 without a session, even with a forged x-middleware-subrequest header", async () => {
    const forged: Record<string, string>[] = [{}, { "x-middleware-subrequest": "middleware:middleware:middleware:middleware:middleware" }];
    for (const headers of forged) {
      const response = await getKeys(appRequest("/api/admin/keys", { headers }), noParams);
      expect(response.status).toBe(401);
      expect(await response.json()).toEqual({ detail: "Sign in to continue." });
    }
    const post = await postKey(
      appRequest("/api/admin/keys", { method: "POST", body: { kind: "sandbox" }, headers: { "x-middleware-subrequest": "src/middleware" } }),
      noParams,
    );
    expect(post.status).toBe(401);
  });

  it("answers 403 to a member on every admin key route", async () => {
    const detail = { detail: "Only an administrator of this organization can do this." };
    const responses = [
      await getKeys(appRequest("/api/admin/keys", { cookie: memberCookie }), noParams),
      await postKey(appRequest("/api/admin/keys", { method: "POST", cookie: memberCookie, body: { kind: "sandbox" } }), noParams),
      await deleteKey(appRequest("/api/admin/keys/key_x", { method: "DELETE", cookie: memberCookie }), idParams("key_x")),
    ];
    for (const response of responses) {
      expect(response.status).toBe(403);
      expect(await response.json()).toEqual(detail);
    }
  });

  it("issues a sandbox key shown once: the list carries its start and dates, never the key", async () => {
    const response = await postKey(
      appRequest("/api/admin/keys", { method: "POST", cookie: adminCookie, body: { kind: "sandbox", name: "  Staging  " } }),
      noParams,
    );
    expect(response.status).toBe(201);
    const created = (await response.json()) as { key: string; record: { id: string; name: string; kind: string; start: string; createdAt: string; expiresAt: string } };
    expect(created.key).toMatch(/^ss_test_/);
    expect(created.record).toMatchObject({ name: "Staging", kind: "sandbox" });
    expect(created.key.startsWith(created.record.start)).toBe(true);
    expect(Date.parse(created.record.expiresAt) - Date.parse(created.record.createdAt)).toBe(28 * 24 * 3600 * 1000);
    expect((await verifyApiKey(db, created.key)).ok).toBe(true);

    const list = await getKeys(appRequest("/api/admin/keys", { cookie: adminCookie }), noParams);
    expect(list.status).toBe(200);
    const text = await list.text();
    expect(text).not.toContain(created.key);
    const { keys } = JSON.parse(text) as { keys: Record<string, unknown>[] };
    const listed = keys.find((key) => key.id === created.record.id);
    expect(listed).toMatchObject({ kind: "sandbox", status: "active", start: created.record.start, revokedAt: null });
    // verifyApiKey above used it once.
    expect(typeof listed?.lastUsedAt).toBe("string");
    expect(Object.keys(listed ?? {}).sort()).toEqual(["createdAt", "expiresAt", "id", "kind", "lastUsedAt", "name", "revokedAt", "start", "status"]);
  });

  it("refuses a cross-site POST with 403 and issues nothing", async () => {
    const before = await countKeys(adminCookie);
    const crossSite: Record<string, string>[] = [{ origin: "http://evil.test" }, { "sec-fetch-site": "cross-site", origin: "http://evil.test" }];
    for (const headers of crossSite) {
      const response = await postKey(appRequest("/api/admin/keys", { method: "POST", cookie: adminCookie, body: { kind: "production" }, headers }), noParams);
      expect(response.status).toBe(403);
      expect(await response.json()).toEqual({ detail: "Cross-site request refused." });
    }
    const bare = new Request("http://app.test/api/admin/keys", { method: "POST", headers: { cookie: adminCookie, "content-type": "application/json" }, body: "{}" });
    expect((await postKey(bare, noParams)).status).toBe(403);
    expect(await countKeys(adminCookie)).toBe(before);
  });

  it("answers 400 with the reason for a bad body", async () => {
    const cases: [string | object, string][] = [
      [{ kind: "gold" }, "kind: kind must be production or sandbox"],
      [{ kind: "sandbox", name: "x".repeat(101) }, "name: name must have at most 100 characters"],
      ["not json", "The request body must be JSON."],
    ];
    for (const [body, detail] of cases) {
      const request = new Request("http://app.test/api/admin/keys", {
        method: "POST",
        headers: { cookie: adminCookie, origin: "http://app.test", "content-type": "application/json" },
        body: typeof body === "string" ? body : JSON.stringify(body),
      });
      const response = await postKey(request, noParams);
      expect(response.status).toBe(400);
      expect(await response.json()).toEqual({ detail });
    }
  });

  it("revokes its own key once (then 404) and answers 404 for another organization's key, which stays active", async () => {
    const own = await createApiKey(db, { createdBy: OPERATOR, organizationId: admin.organization.id, kind: "production" });
    const other = await seedOrganization(db);
    const foreign = await createApiKey(db, { createdBy: OPERATOR, organizationId: other.organization.id, kind: "production" });

    const crossOrg = await deleteKey(appRequest(`/api/admin/keys/${foreign.record.id}`, { method: "DELETE", cookie: adminCookie }), idParams(foreign.record.id));
    expect(crossOrg.status).toBe(404);
    expect(await crossOrg.json()).toEqual({ detail: "No active API key with this id in your organization." });
    expect((await verifyApiKey(db, foreign.key)).ok).toBe(true);

    const revoked = await deleteKey(appRequest(`/api/admin/keys/${own.record.id}`, { method: "DELETE", cookie: adminCookie }), idParams(own.record.id));
    expect(revoked.status).toBe(200);
    expect(await revoked.json()).toEqual({ id: own.record.id, status: "revoked" });
    expect(await verifyApiKey(db, own.key)).toMatchObject({ ok: false, reason: "revoked" });
    const again = await deleteKey(appRequest(`/api/admin/keys/${own.record.id}`, { method: "DELETE", cookie: adminCookie }), idParams(own.record.id));
    expect(again.status).toBe(404);

    const foreignCookie = await sessionCookie({ userId: other.user.id, organizationId: other.organization.id });
    const { keys } = (await (await getKeys(appRequest("/api/admin/keys", { cookie: foreignCookie }), noParams)).json()) as { keys: { id: string }[] };
    expect(keys.map((key) => key.id)).toEqual([foreign.record.id]);
  });

  async function countKeys(cookie: string): Promise<number> {
    const response = await getKeys(appRequest("/api/admin/keys", { cookie }), noParams);
    return ((await response.json()) as { keys: unknown[] }).keys.length;
  }
});
