import { and, eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { DELETE as deleteMember, PATCH as patchMember } from "@/app/api/admin/members/[id]/route";
import { DELETE as deleteSessions } from "@/app/api/admin/members/[id]/sessions/route";
import { closeDb, type Db } from "@/db/client";
import { auditEvents } from "@/db/schema";
import { authenticateCredentials } from "@/lib/auth/authenticate";
import { requireMemberForRoute } from "@/lib/auth/session";
import { createUser, type CreatedUser, OPERATOR } from "@/lib/services";
import { appRequest, configureAuthEnv, sessionCookie, useAppDatabase } from "@/test/auth/support";
import { seedOrganization, testDatabases, TEST_PASSWORD } from "@/test/support/databases";

configureAuthEnv();

const idParams = (id: string) => ({ params: Promise.resolve({ id }) });
let addressCounter = 0;
const freshAddress = () => `192.0.2.${++addressCounter}-${Date.now()}`;

describe.each(testDatabases())("offboarding on $name", (database) => {
  let db: Db;
  let org: CreatedUser;
  let adminCookie: string;

  beforeAll(async () => {
    db = await useAppDatabase(database);
    org = await seedOrganization(db, { prefix: "offboard" });
    adminCookie = await sessionCookie({ userId: org.user.id, organizationId: org.organization.id });
  });
  afterAll(() => closeDb());

  let memberCount = 0;
  async function addMember(role: "admin" | "member" = "member") {
    const created = await createUser(db, { actor: OPERATOR, email: `m${++memberCount}-${org.organization.slug}@example.test`, password: TEST_PASSWORD, orgSlug: org.organization.slug, role });
    return { ...created, cookie: await sessionCookie({ userId: created.user.id, organizationId: org.organization.id }) };
  }
  const isSignedIn = async (cookie: string) => !((await requireMemberForRoute(appRequest("/api/x", { cookie }))) instanceof Response);
  const canSignIn = async (email: string) => (await authenticateCredentials(db, { email, password: TEST_PASSWORD, ip: freshAddress() })).ok;
  const audited = async (action: string, target: string) =>
    db
      .select({ actor: auditEvents.actor })
      .from(auditEvents)
      .where(and(eq(auditEvents.organizationId, org.organization.id), eq(auditEvents.action, action), eq(auditEvents.target, target)));

  it("removes a member: their session is refused on the next request, they cannot sign in, and it is audited", async () => {
    const member = await addMember();
    expect(await isSignedIn(member.cookie)).toBe(true);
    const response = await deleteMember(appRequest(`/api/admin/members/${member.user.id}`, { method: "DELETE", cookie: adminCookie }), idParams(member.user.id));
    expect(response.status).toBe(204);
    expect(await isSignedIn(member.cookie)).toBe(false);
    expect(await canSignIn(member.user.email)).toBe(false);
    expect(await audited("membership.removed", member.user.id)).toEqual([{ actor: org.user.id }]);
    const again = await deleteMember(appRequest(`/api/admin/members/${member.user.id}`, { method: "DELETE", cookie: adminCookie }), idParams(member.user.id));
    expect(again.status).toBe(404);
    expect(await again.json()).toEqual({ detail: "Member not found." });
  });

  it("disables a member (sessions ended at the next request, no sign-in) and re-enables them, each audited", async () => {
    const member = await addMember();
    const patch = (disabled: boolean) =>
      patchMember(appRequest(`/api/admin/members/${member.user.id}`, { method: "PATCH", cookie: adminCookie, body: { disabled } }), idParams(member.user.id));
    const disabled = await patch(true);
    expect(disabled.status).toBe(200);
    expect(await disabled.json()).toEqual({ member: { userId: member.user.id, disabled: true } });
    expect(await isSignedIn(member.cookie)).toBe(false);
    expect(await canSignIn(member.user.email)).toBe(false);

    expect((await patch(false)).status).toBe(200);
    // Re-enabling lets them sign in again, but never revives a session that was open before.
    expect(await isSignedIn(member.cookie)).toBe(false);
    expect(await canSignIn(member.user.email)).toBe(true);
    expect(await audited("membership.disabled", member.user.id)).toHaveLength(1);
    expect(await audited("membership.enabled", member.user.id)).toHaveLength(1);
  });

  it("revokes every session of a member, audited; later sign-ins work", async () => {
    const member = await addMember();
    const response = await deleteSessions(appRequest(`/api/admin/members/${member.user.id}/sessions`, { method: "DELETE", cookie: adminCookie }), idParams(member.user.id));
    expect(response.status).toBe(204);
    expect(await isSignedIn(member.cookie)).toBe(false);
    expect(await audited("session.revoked_all", member.user.id)).toEqual([{ actor: org.user.id }]);
    expect(await canSignIn(member.user.email)).toBe(true);
  });

  it("never removes or disables the last admin, nor lets an admin offboard themselves", async () => {
    const solo = await seedOrganization(db, { prefix: "offboard-solo" });
    const soloCookie = await sessionCookie({ userId: solo.user.id, organizationId: solo.organization.id });
    const self = await deleteMember(appRequest(`/api/admin/members/${solo.user.id}`, { method: "DELETE", cookie: soloCookie }), idParams(solo.user.id));
    expect(self.status).toBe(409);
    expect(await self.json()).toEqual({ detail: "You cannot remove yourself: ask another administrator." });
    const disableSelf = await patchMember(
      appRequest(`/api/admin/members/${solo.user.id}`, { method: "PATCH", cookie: soloCookie, body: { disabled: true } }),
      idParams(solo.user.id),
    );
    expect(disableSelf.status).toBe(409);
  });

  it("refuses members (403), other organizations' members (404) and bad bodies (400)", async () => {
    const member = await addMember();
    const target = await addMember();
    const byMember = await deleteMember(appRequest(`/api/admin/members/${target.user.id}`, { method: "DELETE", cookie: member.cookie }), idParams(target.user.id));
    expect(byMember.status).toBe(403);
    const other = await seedOrganization(db, { prefix: "offboard-other" });
    for (const response of [
      await deleteMember(appRequest(`/api/admin/members/${other.user.id}`, { method: "DELETE", cookie: adminCookie }), idParams(other.user.id)),
      await deleteSessions(appRequest(`/api/admin/members/${other.user.id}/sessions`, { method: "DELETE", cookie: adminCookie }), idParams(other.user.id)),
    ]) {
      expect(response.status).toBe(404);
      expect(await response.json()).toEqual({ detail: "Member not found." });
    }
    expect(await isSignedIn(await sessionCookie({ userId: other.user.id, organizationId: other.organization.id }))).toBe(true);
    const bad = await patchMember(appRequest(`/api/admin/members/${target.user.id}`, { method: "PATCH", cookie: adminCookie, body: { disabled: "yes" } }), idParams(target.user.id));
    expect(bad.status).toBe(400);
  });
});
