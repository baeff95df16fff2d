import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { GET, POST } from "@/app/api/admin/webhook-secret/route";
import { closeDb, type Db } from "@/db/client";
import { findWebhookSecret } from "@/db/queries/webhooks";
import { resetEnvForTests } from "@/lib/env";
import { createUser, OPERATOR } from "@/lib/services";
import { webhookSecretOf } from "@/lib/webhooks/secret";
import { appRequest, configureAuthEnv, sessionCookie, useAppDatabase } from "@/test/auth/support";
import { seedOrganization, testDatabases, TEST_PASSWORD } from "@/test/support/databases";

configureAuthEnv();

/**
 * The webhook secret is created and rotated by an admin only, shown once in
 * the answer that made it, and afterwards only by its start; the database
 * holds a salt, never the secret.
 */
const noParams = { params: Promise.resolve({}) };

describe.each(testDatabases())("admin webhook secret routes on $name", (database) => {
  let db: Db;
  let organizationId: string;
  let adminCookie: string;
  let memberCookie: string;

  beforeAll(async () => {
    vi.stubEnv("WEBHOOK_SECRET_PEPPER", "a-pepper-of-at-least-thirty-two-characters");
    resetEnvForTests();
    db = await useAppDatabase(database);
    const admin = await seedOrganization(db);
    organizationId = admin.organization.id;
    adminCookie = await sessionCookie({ userId: admin.user.id, organizationId });
    const member = await createUser(db, { actor: OPERATOR, email: `member-${admin.organization.slug}@example.test`, password: TEST_PASSWORD, orgSlug: admin.organization.slug, role: "member" });
    memberCookie = await sessionCookie({ userId: member.user.id, organizationId });
  });
  afterAll(async () => {
    await closeDb();
    vi.unstubAllEnvs();
    resetEnvForTests();
  });

  it("answers 403 to a member", async () => {
    for (const response of [
      await GET(appRequest("/api/admin/webhook-secret", { cookie: memberCookie }), noParams),
      await POST(appRequest("/api/admin/webhook-secret", { method: "POST", cookie: memberCookie }), noParams),
    ]) {
      expect(response.status).toBe(403);
      expect(await response.json()).toEqual({ detail: "Only an administrator of this organization can do this." });
    }
  });

  it("shows a new secret once, then only its start; rotating replaces it; the database keeps no secret", async () => {
    const none = await GET(appRequest("/api/admin/webhook-secret", { cookie: adminCookie }), noParams);
    expect(await none.json()).toEqual({ configured: false, start: null, createdAt: null });

    const created = await POST(appRequest("/api/admin/webhook-secret", { method: "POST", cookie: adminCookie }), noParams);
    expect(created.status).toBe(201);
    const first = (await created.json()) as { secret: string; start: string };
    expect(first.secret).toMatch(/^whsec_[A-Za-z0-9_-]{43}$/);
    expect(first.start).toBe(first.secret.slice(0, 10));

    const shown = (await (await GET(appRequest("/api/admin/webhook-secret", { cookie: adminCookie }), noParams)).json()) as Record<string, unknown>;
    expect(shown).toMatchObject({ configured: true, start: first.start });
    expect(JSON.stringify(shown)).not.toContain(first.secret);

    const row = await findWebhookSecret(db, { organizationId });
    expect(JSON.stringify(row)).not.toContain(first.secret.slice(6));
    expect(webhookSecretOf(organizationId, row!.salt)).toBe(first.secret);

    const rotated = (await (await POST(appRequest("/api/admin/webhook-secret", { method: "POST", cookie: adminCookie }), noParams)).json()) as { secret: string };
    expect(rotated.secret).not.toBe(first.secret);
    expect(webhookSecretOf(organizationId, (await findWebhookSecret(db, { organizationId }))!.salt)).toBe(rotated.secret);
  });
});
