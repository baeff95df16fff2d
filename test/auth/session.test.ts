import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { closeDb, type Db } from "@/db/client";
import { encode } from "next-auth/jwt";
import { revokedSessions } from "@/db/schema";
import { revokeSession } from "@/db/queries/sessions";
import { authOptions } from "@/lib/auth/options";
import { assertSameOrigin, requireAdminForRoute, requireMemberForRoute } from "@/lib/auth/session";
import { createUser, OPERATOR } from "@/lib/services";
import { seedOrganization, testDatabases, TEST_PASSWORD } from "@/test/support/databases";
import { APP_ORIGIN, appRequest, configureAuthEnv, sessionCookie, sessionToken, useAppDatabase } from "./support";

configureAuthEnv();

describe.each(testDatabases())("session guards on $name", (database) => {
  let db: Db;
  beforeAll(async () => {
    db = await useAppDatabase(database);
  });
  afterAll(() => closeDb());

  it("refuses a request without a session cookie with 401", async () => {
    const result = await requireMemberForRoute(appRequest("/api/x"));
    expect(result).toBeInstanceOf(Response);
    const response = result as Response;
    expect(response.status).toBe(401);
    expect(await response.json()).toEqual({ detail: "Sign in to continue." });
  });

  it("refuses a forged or tampered token with 401", async () => {
    const admin = await seedOrganization(db);
    const good = await sessionCookie({ userId: admin.user.id, organizationId: admin.organization.id });
    const tampered = good.slice(0, -4) + (good.endsWith("AAAA") ? "BBBB" : "AAAA");
    for (const cookie of ["shipshape.session=not-a-token", tampered]) {
      const result = await requireMemberForRoute(appRequest("/api/x", { cookie }));
      expect((result as Response).status).toBe(401);
    }
  });

  it("reads the role from the database, not the token", async () => {
    const admin = await seedOrganization(db);
    const cookie = await sessionCookie({ userId: admin.user.id, organizationId: admin.organization.id });
    expect(await requireAdminForRoute(appRequest("/api/x", { cookie }))).toEqual({
      userId: admin.user.id,
      organizationId: admin.organization.id,
      role: "admin",
      email: admin.user.email,
    });

    const member = await createUser(db, { actor: OPERATOR,
      email: `member-${admin.organization.slug}@example.test`,
      password: TEST_PASSWORD,
      orgSlug: admin.organization.slug,
      role: "member",
    });
    const memberCookie = await sessionCookie({ userId: member.user.id, organizationId: admin.organization.id });
    expect(await requireMemberForRoute(appRequest("/api/x", { cookie: memberCookie }))).toMatchObject({ role: "member" });
    const refused = (await requireAdminForRoute(appRequest("/api/x", { cookie: memberCookie }))) as Response;
    expect(refused.status).toBe(403);
    expect(await refused.json()).toEqual({ detail: "Only an administrator of this organization can do this." });
  });

  it("refuses a token naming an organization the user does not belong to", async () => {
    const a = await seedOrganization(db);
    const b = await seedOrganization(db);
    const cookie = await sessionCookie({ userId: a.user.id, organizationId: b.organization.id });
    expect(((await requireMemberForRoute(appRequest("/api/x", { cookie }))) as Response).status).toBe(401);
  });

  it("refuses a token without a session id (made before sessions could be ended)", async () => {
    const admin = await seedOrganization(db);
    const token = await encode({ token: { sub: admin.user.id, org: admin.organization.id }, secret: process.env.NEXTAUTH_SECRET! });
    expect(((await requireMemberForRoute(appRequest("/api/x", { cookie: `shipshape.session=${token}` }))) as Response).status).toBe(401);
  });

  it("ends a signed-out session for every copy of its cookie, and no other session of the user", async () => {
    const admin = await seedOrganization(db);
    const claims = { userId: admin.user.id, organizationId: admin.organization.id, sessionId: crypto.randomUUID(), signedInAt: Date.now() };
    // Two encodings of one session: next-auth re-encodes the token as it renews it.
    const [first, renewed, otherDevice] = [await sessionCookie(claims), await sessionCookie(claims), await sessionCookie({ ...claims, sessionId: undefined })];
    expect(await requireMemberForRoute(appRequest("/api/x", { cookie: first }))).toMatchObject({ userId: admin.user.id });

    const exp = Math.floor(Date.now() / 1000) + 3600;
    await authOptions().events!.signOut!({ token: { ...sessionToken(claims), exp }, session: null as never });

    for (const cookie of [first, renewed]) {
      const refused = (await requireMemberForRoute(appRequest("/api/x", { cookie }))) as Response;
      expect(refused.status).toBe(401);
      expect(await refused.json()).toEqual({ detail: "Sign in to continue." });
    }
    expect(await requireMemberForRoute(appRequest("/api/x", { cookie: otherDevice }))).toMatchObject({ userId: admin.user.id });
    const [row] = await db.select().from(revokedSessions).where(eq(revokedSessions.sessionId, claims.sessionId));
    // Kept until the session's absolute end (sign-in + 12 h), not the token's own sooner expiry.
    expect(row?.expiresAt.getTime()).toBe(claims.signedInAt + 12 * 60 * 60 * 1000);
  });

  it("forgets revoked sessions once their tokens have expired", async () => {
    const admin = await seedOrganization(db);
    const expired = crypto.randomUUID();
    await revokeSession(db, { sessionId: expired, userId: admin.user.id, expiresAt: new Date(Date.now() - 60_000) });
    const live = crypto.randomUUID();
    await revokeSession(db, { sessionId: live, userId: admin.user.id, expiresAt: new Date(Date.now() + 60_000) });
    const ids = (await db.select({ id: revokedSessions.sessionId }).from(revokedSessions)).map((r) => r.id);
    expect(ids).toContain(live);
    expect(ids).not.toContain(expired);
  });
});

describe("assertSameOrigin", () => {
  const post = (headers: Record<string, string>) =>
    new Request(`${APP_ORIGIN}/api/x`, { method: "POST", headers });

  it("lets same-origin requests through", () => {
    expect(assertSameOrigin(post({ origin: APP_ORIGIN }))).toBeUndefined();
    expect(assertSameOrigin(post({ "sec-fetch-site": "same-origin", origin: APP_ORIGIN }))).toBeUndefined();
  });

  it.each([
    ["a foreign Origin", { origin: "http://evil.test" }],
    ["a null Origin", { origin: "null" }],
    ["neither header", {}],
    ["a cross-site fetch", { "sec-fetch-site": "cross-site", origin: APP_ORIGIN }],
    ["a same-site sibling", { "sec-fetch-site": "same-site" }],
  ])("refuses %s with 403", async (_name, headers) => {
    const response = assertSameOrigin(post(headers));
    expect(response?.status).toBe(403);
    expect(await response?.json()).toEqual({ detail: "Cross-site request refused." });
  });
});
