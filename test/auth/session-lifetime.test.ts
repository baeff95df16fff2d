import { randomUUID } from "node:crypto";
import { createRequire } from "node:module";
import path from "node:path";
import { and, eq } from "drizzle-orm";
import type { AuthOptions } from "next-auth";
import { decode, encode } from "next-auth/jwt";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { closeDb, type Db } from "@/db/client";
import { auditEvents, revokedSessions } from "@/db/schema";
import { DELETE as signOutEverywhere } from "@/app/api/auth/sessions/route";
import { authOptions } from "@/lib/auth/options";
import { requireMemberForRoute } from "@/lib/auth/session";
import { seedOrganization, testDatabases } from "@/test/support/databases";
import { APP_ORIGIN, appRequest, configureAuthEnv, sessionToken, useAppDatabase } from "./support";

configureAuthEnv();

/**
 * next-auth's framework-free handler, which its app-router route calls after
 * reading next/headers; the package does not export it, so it is loaded by path.
 */
const { AuthHandler } = createRequire(import.meta.url)(path.join(process.cwd(), "node_modules/next-auth/core/index.js")) as {
  AuthHandler: (params: { req: Request; options: AuthOptions }) => Promise<{ body?: unknown; cookies?: Array<{ name: string; value: string }> }>;
};

const HOUR_MS = 60 * 60 * 1000;
const LIFETIME_MS = 12 * HOUR_MS;

/** A token as next-auth would hold it after renewals: a fresh expiry, whatever the sign-in time. */
async function tokenFor(claims: Parameters<typeof sessionToken>[0]): Promise<string> {
  return encode({ token: sessionToken(claims), secret: process.env.NEXTAUTH_SECRET!, maxAge: LIFETIME_MS / 1000 });
}

/** GET /api/auth/session through next-auth's own handler: what the browser calls on every page focus. */
async function renew(token: string) {
  const response = await AuthHandler({
    req: new Request(`${APP_ORIGIN}/api/auth/session`, { headers: { cookie: `shipshape.session=${token}`, host: new URL(APP_ORIGIN).host } }),
    options: authOptions(),
  });
  const renewed = response.cookies?.find((cookie) => cookie.name === "shipshape.session" && cookie.value);
  return { body: response.body, renewed: renewed?.value, cleared: response.cookies?.some((cookie) => cookie.name === "shipshape.session" && !cookie.value) };
}

describe.each(testDatabases())("session lifetime on $name", (database) => {
  let db: Db;
  beforeAll(async () => {
    db = await useAppDatabase(database);
  });
  afterAll(() => closeDb());

  it("renews a live session without moving its end: the renewed token still expires 12 h after sign-in", async () => {
    const admin = await seedOrganization(db);
    const signedInAt = Date.now() - 11 * HOUR_MS;
    const { body, renewed } = await renew(await tokenFor({ userId: admin.user.id, organizationId: admin.organization.id, signedInAt }));
    expect(body).toMatchObject({ userId: admin.user.id });
    const payload = await decode({ token: renewed!, secret: process.env.NEXTAUTH_SECRET! });
    expect(payload).toMatchObject({ sub: admin.user.id, sat: signedInAt });
    expect((payload!.exp as number) * 1000).toBeLessThanOrEqual(signedInAt + LIFETIME_MS);
  });

  it("ends a session 12 h after sign-in however often it was renewed: no renewal, cleared cookie, 401", async () => {
    const admin = await seedOrganization(db);
    const token = await tokenFor({ userId: admin.user.id, organizationId: admin.organization.id, signedInAt: Date.now() - LIFETIME_MS - 60_000 });
    const { body, renewed, cleared } = await renew(token);
    expect(body).toEqual({});
    expect(renewed).toBeUndefined();
    expect(cleared).toBe(true);
    const refused = (await requireMemberForRoute(appRequest("/api/x", { cookie: `shipshape.session=${token}` }))) as Response;
    expect(refused.status).toBe(401);
  });

  it("refuses a token with no sign-in time (issued before sessions had a lifetime)", async () => {
    const admin = await seedOrganization(db);
    const token = await encode({ token: { sub: admin.user.id, org: admin.organization.id, sid: randomUUID() }, secret: process.env.NEXTAUTH_SECRET! });
    expect((await renew(token)).renewed).toBeUndefined();
    expect(((await requireMemberForRoute(appRequest("/api/x", { cookie: `shipshape.session=${token}` }))) as Response).status).toBe(401);
  });

  it("never renews a signed-out session, and keeps its revocation until the session's absolute end", async () => {
    const admin = await seedOrganization(db);
    const claims = { userId: admin.user.id, organizationId: admin.organization.id, sessionId: randomUUID(), signedInAt: Date.now() - HOUR_MS };
    const copy = await tokenFor(claims);
    // The token's own expiry is sooner than the session's end: the revocation must outlive it.
    const exp = Math.floor(Date.now() / 1000) + 60;
    await authOptions().events!.signOut!({ token: { ...sessionToken(claims), exp }, session: null as never });

    const { body, renewed } = await renew(copy);
    expect(body).toEqual({});
    expect(renewed).toBeUndefined();
    const [row] = await db.select().from(revokedSessions).where(eq(revokedSessions.sessionId, claims.sessionId));
    expect(row?.expiresAt.getTime()).toBe(claims.signedInAt + LIFETIME_MS);
  });

  it("signs out everywhere: every device's session ends on its next request and renewal; a later sign-in works", async () => {
    const admin = await seedOrganization(db);
    const ids = { userId: admin.user.id, organizationId: admin.organization.id };
    const [laptop, phone] = [await tokenFor({ ...ids, signedInAt: Date.now() - 1000 }), await tokenFor({ ...ids, signedInAt: Date.now() - 2000 })];
    const cookie = (token: string) => `shipshape.session=${token}`;
    const context = { params: Promise.resolve({}) };

    const crossSite = await signOutEverywhere(appRequest("/api/auth/sessions", { method: "DELETE", cookie: cookie(laptop), headers: { origin: "http://evil.test" } }), context);
    expect(crossSite.status).toBe(403);
    expect(await requireMemberForRoute(appRequest("/api/x", { cookie: cookie(phone) }))).toMatchObject({ userId: admin.user.id });

    const response = await signOutEverywhere(appRequest("/api/auth/sessions", { method: "DELETE", cookie: cookie(laptop) }), context);
    expect(response.status).toBe(204);
    for (const token of [laptop, phone]) {
      expect(((await requireMemberForRoute(appRequest("/api/x", { cookie: cookie(token) }))) as Response).status).toBe(401);
      expect((await renew(token)).renewed).toBeUndefined();
    }
    const later = await tokenFor({ ...ids, signedInAt: Date.now() + 5 });
    expect(await requireMemberForRoute(appRequest("/api/x", { cookie: cookie(later) }))).toMatchObject({ userId: admin.user.id });
    const audited = await db
      .select({ actor: auditEvents.actor, target: auditEvents.target })
      .from(auditEvents)
      .where(and(eq(auditEvents.organizationId, admin.organization.id), eq(auditEvents.action, "session.revoked_all")));
    expect(audited).toEqual([{ actor: admin.user.id, target: admin.user.id }]);

    const anonymous = await signOutEverywhere(appRequest("/api/auth/sessions", { method: "DELETE" }), context);
    expect(anonymous.status).toBe(401);
    expect(await anonymous.json()).toEqual({ detail: "Sign in to continue." });
  });
});
