import { and, eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { POST as resetPassword } from "@/app/api/admin/members/[id]/password/route";
import { POST as changePassword } from "@/app/api/auth/password/route";
import { closeDb, type Db } from "@/db/client";
import { auditEvents } from "@/db/schema";
import { authenticateCredentials } from "@/lib/auth/authenticate";
import { requireMemberForRoute } from "@/lib/auth/session";
import { addMember } from "@/lib/services/add-member";
import { createUser, type CreatedUser, OPERATOR } from "@/lib/services";
import { appRequest, configureAuthEnv, sessionCookie, useAppDatabase } from "@/test/auth/support";
import { seedOrganization, testDatabases, TEST_PASSWORD } from "@/test/support/databases";

configureAuthEnv();

const idParams = (id: string) => ({ params: Promise.resolve({ id }) });
const noParams = { params: Promise.resolve({}) };
let addressCounter = 0;
const freshAddress = () => `203.0.113.${++addressCounter}-${Date.now()}`;
const NEW_PASSWORD = "a brand new passphrase";

describe.each(testDatabases())("passwords on $name", (database) => {
  let db: Db;
  let org: CreatedUser;
  let adminCookie: string;

  beforeAll(async () => {
    db = await useAppDatabase(database);
    org = await seedOrganization(db, { prefix: "passwords" });
    adminCookie = await sessionCookie({ userId: org.user.id, organizationId: org.organization.id });
  });
  afterAll(() => closeDb());

  let count = 0;
  async function newMember() {
    const created = await createUser(db, { actor: OPERATOR, email: `p${++count}-${org.organization.slug}@example.test`, password: TEST_PASSWORD, orgSlug: org.organization.slug, role: "member" });
    return { ...created, cookie: await sessionCookie({ userId: created.user.id, organizationId: org.organization.id, signedInAt: Date.now() - 1000 }) };
  }
  const isSignedIn = async (cookie: string) => !((await requireMemberForRoute(appRequest("/api/x", { cookie }))) instanceof Response);
  const signIn = (email: string, password: string, newPassword?: string) => authenticateCredentials(db, { email, password, ip: freshAddress(), newPassword });
  const audited = async (action: string, target: string) =>
    db
      .select({ actor: auditEvents.actor })
      .from(auditEvents)
      .where(and(eq(auditEvents.organizationId, org.organization.id), eq(auditEvents.action, action), eq(auditEvents.target, target)));
  const change = (cookie: string, body: unknown) => changePassword(appRequest("/api/auth/password", { method: "POST", cookie, body }), noParams);

  it("changes one's own password: the old one stops working, every session ends, audited", async () => {
    const member = await newMember();
    const response = await change(member.cookie, { currentPassword: TEST_PASSWORD, newPassword: NEW_PASSWORD });
    expect(response.status).toBe(204);
    expect(await isSignedIn(member.cookie)).toBe(false);
    expect(await signIn(member.user.email, TEST_PASSWORD)).toEqual({ ok: false, reason: "invalid" });
    expect(await signIn(member.user.email, NEW_PASSWORD)).toMatchObject({ ok: true, userId: member.user.id });
    expect(await audited("user.password_changed", member.user.id)).toEqual([{ actor: member.user.id }]);
  });

  it("refuses a wrong current password, a short new one and the same one again, with what was wrong", async () => {
    const member = await newMember();
    const cases: Array<[unknown, string]> = [
      [{ currentPassword: "not my password", newPassword: NEW_PASSWORD }, "The current password is incorrect."],
      [{ currentPassword: TEST_PASSWORD, newPassword: "short" }, "newPassword: newPassword must have at least 12 characters"],
      [{ currentPassword: TEST_PASSWORD, newPassword: TEST_PASSWORD }, "newPassword must differ from the current password."],
      [{ newPassword: NEW_PASSWORD }, "currentPassword: currentPassword is required"],
    ];
    for (const [body, detail] of cases) {
      const response = await change(member.cookie, body);
      expect(response.status).toBe(400);
      expect(await response.json()).toEqual({ detail });
    }
    expect(await isSignedIn(member.cookie)).toBe(true);
    expect((await change("", { currentPassword: TEST_PASSWORD, newPassword: NEW_PASSWORD })).status).toBe(401);
  });

  it("an admin's reset ends the member's sessions; the temporary password only lets them choose a new one", async () => {
    const member = await newMember();
    const response = await resetPassword(appRequest(`/api/admin/members/${member.user.id}/password`, { method: "POST", cookie: adminCookie }), idParams(member.user.id));
    expect(response.status).toBe(200);
    expect(response.headers.get("cache-control")).toBe("no-store");
    const { temporaryPassword, userId } = (await response.json()) as { temporaryPassword: string; userId: string };
    expect(userId).toBe(member.user.id);
    expect(temporaryPassword.length).toBeGreaterThanOrEqual(20);
    expect(await isSignedIn(member.cookie)).toBe(false);
    expect(await signIn(member.user.email, TEST_PASSWORD)).toEqual({ ok: false, reason: "invalid" });
    // The temporary password alone opens no session.
    expect(await signIn(member.user.email, temporaryPassword)).toEqual({ ok: false, reason: "password_change_required" });
    expect(await signIn(member.user.email, temporaryPassword, "short")).toMatchObject({ ok: false, reason: "new_password_invalid" });
    expect(await signIn(member.user.email, temporaryPassword, temporaryPassword)).toMatchObject({ ok: false, reason: "new_password_invalid" });
    expect(await signIn(member.user.email, temporaryPassword, NEW_PASSWORD)).toMatchObject({ ok: true, userId: member.user.id });
    expect(await signIn(member.user.email, temporaryPassword)).toEqual({ ok: false, reason: "invalid" });
    expect(await signIn(member.user.email, NEW_PASSWORD)).toMatchObject({ ok: true });
    expect(await audited("user.password_reset", member.user.id)).toEqual([{ actor: org.user.id }]);
    expect(await audited("user.password_changed", member.user.id)).toEqual([{ actor: member.user.id }]);
  });

  it("refuses a reset by a member (403), of another organization's user (404), of oneself and of someone in another organization too (409)", async () => {
    const member = await newMember();
    const target = await newMember();
    const reset = (cookie: string, id: string) => resetPassword(appRequest(`/api/admin/members/${id}/password`, { method: "POST", cookie }), idParams(id));
    expect((await reset(member.cookie, target.user.id)).status).toBe(403);
    const other = await seedOrganization(db, { prefix: "passwords-other" });
    const foreign = await reset(adminCookie, other.user.id);
    expect(foreign.status).toBe(404);
    expect(await foreign.json()).toEqual({ detail: "Member not found." });
    expect(await signIn(other.user.email, TEST_PASSWORD)).toMatchObject({ ok: true });
    const self = await reset(adminCookie, org.user.id);
    expect(self.status).toBe(409);
    // An account used in two organizations: neither admin may take it over.
    await addMember(db, { organizationId: other.organization.id, addedBy: other.user.id, email: target.user.email, password: "whatever it is ok", role: "member" });
    const shared = await reset(adminCookie, target.user.id);
    expect(shared.status).toBe(409);
    expect(await signIn(target.user.email, TEST_PASSWORD)).toMatchObject({ ok: true });
  });
});
