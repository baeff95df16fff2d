import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Db } from "@/db/client";
import { listAuditEvents } from "@/db/queries/audit-events";
import { verifyApiKey } from "@/lib/keys";
import { seedOrganization, testDatabases, TEST_PASSWORD, type TestDatabase } from "@/test/support/databases";
import { createApiKey } from "./create-api-key";
import { createUser, type CreatedUser } from "./create-user";
import { listApiKeys } from "./list-api-keys";
import { revokeApiKey } from "./revoke-api-key";
import { OPERATOR } from "@/lib/services";

describe.each(testDatabases())("API key services on $name", (database: TestDatabase) => {
  let db: Db;
  let orgA: CreatedUser;
  let orgB: CreatedUser;
  beforeAll(async () => {
    db = await database.open();
    orgA = await seedOrganization(db, { prefix: "keys-a" });
    orgB = await seedOrganization(db, { prefix: "keys-b" });
  });
  afterAll(() => database.close(db));

  it("issues a key shown once, records who issued it, and audits without the secret", async () => {
    const { key, record } = await createApiKey(db, {
      organizationId: orgA.organization.id,
      kind: "sandbox",
      name: "  ci runner ",
      createdBy: orgA.user.id,
    });
    expect(record).toMatchObject({ organizationId: orgA.organization.id, kind: "sandbox", name: "ci runner", createdBy: orgA.user.id });
    expect(record.id).toMatch(/^key_[0-9A-Za-z]{22}$/);
    expect(key.startsWith(record.start)).toBe(true);
    expect(record.start).toMatch(/^ss_test_[0-9A-Za-z]{4}$/);
    expect(record).not.toHaveProperty("digest");

    const events = await listAuditEvents(db, { organizationId: orgA.organization.id });
    const created = events.find((e) => e.action === "api_key.created" && e.target === record.id);
    expect(created).toMatchObject({ actor: orgA.user.id, detail: { kind: "sandbox", name: "ci runner", start: record.start } });
    expect(JSON.stringify(events)).not.toContain(key);
  });

  it("lets only an admin of the organization issue or revoke keys", async () => {
    const member = await createUser(db, { actor: OPERATOR,
      email: `member@${orgA.organization.slug}.test`,
      password: TEST_PASSWORD,
      orgSlug: orgA.organization.slug,
      role: "member",
    });
    const asMember = createApiKey(db, { organizationId: orgA.organization.id, kind: "production", createdBy: member.user.id });
    await expect(asMember).rejects.toMatchObject({ code: "forbidden" });
    // An admin of organization B is nobody in organization A.
    const asOutsider = createApiKey(db, { organizationId: orgA.organization.id, kind: "production", createdBy: orgB.user.id });
    await expect(asOutsider).rejects.toMatchObject({ code: "forbidden" });

    const { record } = await createApiKey(db, { createdBy: OPERATOR, organizationId: orgA.organization.id, kind: "production" });
    const revokeAsMember = revokeApiKey(db, { organizationId: orgA.organization.id, keyId: record.id, revokedBy: member.user.id });
    await expect(revokeAsMember).rejects.toMatchObject({ code: "forbidden" });
    expect((await listApiKeys(db, { organizationId: orgA.organization.id })).find((k) => k.id === record.id)?.status).toBe("active");
  });

  it("requires an actor: none is refused, the operator is audited by name and stored as no user", async () => {
    const noActor = { organizationId: orgA.organization.id, kind: "production" } as Parameters<typeof createApiKey>[1];
    await expect(createApiKey(db, noActor)).rejects.toMatchObject({ code: "invalid_input" });
    const { record } = await createApiKey(db, { createdBy: OPERATOR, organizationId: orgA.organization.id, kind: "production" });
    expect(record.createdBy).toBeNull();
    const noRevoker = { organizationId: orgA.organization.id, keyId: record.id } as Parameters<typeof revokeApiKey>[1];
    await expect(revokeApiKey(db, noRevoker)).rejects.toMatchObject({ code: "invalid_input" });
    expect(await revokeApiKey(db, { revokedBy: OPERATOR, organizationId: orgA.organization.id, keyId: record.id })).toBe(true);
    const events = (await listAuditEvents(db, { organizationId: orgA.organization.id })).filter((e) => e.target === record.id);
    expect(events.map((e) => [e.action, e.actor]).sort()).toEqual([
      ["api_key.created", OPERATOR],
      ["api_key.revoked", OPERATOR],
    ]);
  });

  it("refuses an unknown organization and invalid input", async () => {
    await expect(createApiKey(db, { createdBy: OPERATOR, organizationId: "org_missing", kind: "production" })).rejects.toMatchObject({
      code: "not_found",
    });
    await expect(
      createApiKey(db, { createdBy: OPERATOR, organizationId: orgA.organization.id, kind: "staging" as "production" }),
    ).rejects.toMatchObject({ code: "invalid_input" });
    await expect(
      createApiKey(db, { createdBy: OPERATOR, organizationId: orgA.organization.id, kind: "production", name: "x".repeat(101) }),
    ).rejects.toMatchObject({ code: "invalid_input" });
  });

  it("does not revoke another organization's key and changes nothing", async () => {
    const { key, record } = await createApiKey(db, { createdBy: OPERATOR, organizationId: orgB.organization.id, kind: "production" });
    expect(await revokeApiKey(db, { revokedBy: OPERATOR, organizationId: orgA.organization.id, keyId: record.id })).toBe(false);
    expect((await verifyApiKey(db, key)).ok).toBe(true);
    const [listed] = (await listApiKeys(db, { organizationId: orgB.organization.id })).filter((k) => k.id === record.id);
    expect(listed).toMatchObject({ status: "active", revokedAt: null });
    const auditA = await listAuditEvents(db, { organizationId: orgA.organization.id });
    expect(auditA.some((e) => e.target === record.id)).toBe(false);
  });

  it("revokes once, audits it, and reports false for a second revocation", async () => {
    const { key, record } = await createApiKey(db, { createdBy: OPERATOR, organizationId: orgA.organization.id, kind: "production" });
    expect(await revokeApiKey(db, { organizationId: orgA.organization.id, keyId: record.id, revokedBy: orgA.user.id })).toBe(true);
    expect(await revokeApiKey(db, { revokedBy: OPERATOR, organizationId: orgA.organization.id, keyId: record.id })).toBe(false);
    const events = await listAuditEvents(db, { organizationId: orgA.organization.id });
    const revocations = events.filter((e) => e.action === "api_key.revoked" && e.target === record.id);
    expect(revocations).toHaveLength(1);
    expect(revocations[0]).toMatchObject({ actor: orgA.user.id, detail: { kind: "production", start: record.start } });
    expect(JSON.stringify(events)).not.toContain(key);
  });

  it("lists only the organization's keys with their status, never a secret", async () => {
    const org = await seedOrganization(db, { prefix: "keys-list" });
    const organizationId = org.organization.id;
    const issued = new Date("2030-01-01T00:00:00.000Z");
    const active = await createApiKey(db, { createdBy: OPERATOR, organizationId, kind: "production", name: "live", now: issued });
    const sandbox = await createApiKey(db, { createdBy: OPERATOR, organizationId, kind: "sandbox", name: "dev", now: issued });
    const revoked = await createApiKey(db, { createdBy: OPERATOR, organizationId, kind: "production", name: "old", now: issued });
    await revokeApiKey(db, { revokedBy: OPERATOR, organizationId, keyId: revoked.record.id });
    await createApiKey(db, { createdBy: OPERATOR, organizationId: orgB.organization.id, kind: "production" });

    const inMarch = new Date("2030-03-01T00:00:00.000Z");
    const keys = await listApiKeys(db, { organizationId, now: inMarch });
    const byName = Object.fromEntries(keys.map((k) => [k.name, k]));
    expect(keys).toHaveLength(3);
    expect(byName.live).toMatchObject({ id: active.record.id, status: "active", kind: "production", expiresAt: null });
    expect(byName.dev).toMatchObject({ id: sandbox.record.id, status: "expired", expiresAt: new Date("2030-01-29T00:00:00.000Z") });
    expect(byName.old).toMatchObject({ status: "revoked" });
    const text = JSON.stringify(keys);
    for (const { key } of [active, sandbox, revoked]) expect(text).not.toContain(key);
    expect(keys.every((k) => !("digest" in k))).toBe(true);
    expect(await listApiKeys(db, { organizationId, now: issued })).toEqual(
      expect.arrayContaining([expect.objectContaining({ name: "dev", status: "active" })]),
    );
  });
});
