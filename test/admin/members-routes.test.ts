import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { GET as getAudit } from "@/app/api/admin/audit/route";
import { PATCH as patchMember } from "@/app/api/admin/members/[id]/route";
import { GET as getMembers, POST as postMember } from "@/app/api/admin/members/route";
import { closeDb, type Db } from "@/db/client";
import { findUserByEmail } from "@/db/queries/users";
import { authenticateCredentials } from "@/lib/auth/authenticate";
import { requireAdminForRoute } from "@/lib/auth/session";
import type { CreatedUser } from "@/lib/services";
import { setMemberDisabled } from "@/lib/services/set-member-disabled";
import { appRequest, configureAuthEnv, sessionCookie, useAppDatabase } from "@/test/auth/support";
import { seedOrganization, testDatabases } from "@/test/support/databases";

configureAuthEnv();

const noParams = { params: Promise.resolve({}) };
const idParams = (id: string) => ({ params: Promise.resolve({ id }) });
const NEW_PASSWORD = "a first password for them";

describe.each(testDatabases())("admin member and audit routes on $name", (database) => {
  let db: Db;
  let admin: CreatedUser;
  let adminCookie: string;

  beforeAll(async () => {
    db = await useAppDatabase(database);
    admin = await seedOrganization(db);
    adminCookie = await sessionCookie({ userId: admin.user.id, organizationId: admin.organization.id });
  });
  afterAll(() => closeDb());

  const addMember = (body: unknown, cookie = adminCookie) =>
    postMember(appRequest("/api/admin/members", { method: "POST", cookie, body }), noParams);
  const setRole = (userId: string, role: string, cookie = adminCookie) =>
    patchMember(appRequest(`/api/admin/members/${userId}`, { method: "PATCH", cookie, body: { role } }), idParams(userId));

  it("adds a member who can then sign in, and refuses a duplicate e-mail with 409", async () => {
    const email = `new-${admin.organization.slug}@example.test`;
    const response = await addMember({ email: email.toUpperCase(), password: NEW_PASSWORD, role: "member" });
    expect(response.status).toBe(201);
    const { member } = (await response.json()) as { member: { userId: string; email: string; role: string } };
    expect(member).toMatchObject({ email, role: "member" });
    expect(await authenticateCredentials(db, { email, password: NEW_PASSWORD, ip: `ip-${member.userId}` })).toMatchObject({
      ok: true,
      organizationId: admin.organization.id,
    });

    const listed = (await (await getMembers(appRequest("/api/admin/members", { cookie: adminCookie }), noParams)).json()) as {
      members: { email: string; role: string }[];
    };
    expect(listed.members.map((m) => [m.email, m.role])).toEqual([[admin.user.email, "admin"], [email, "member"]]);
    expect(JSON.stringify(listed)).not.toContain("argon2");

    const duplicate = await addMember({ email, password: NEW_PASSWORD, role: "admin" });
    expect(duplicate.status).toBe(409);
    expect(await duplicate.json()).toEqual({ detail: "This person is already a member of this organization." });
  });

  it("adds someone who has an account in another organization exactly as a new person, revealing nothing of the other tenant", async () => {
    const other = await seedOrganization(db);
    const fresh = await addMember({ email: `fresh-${admin.organization.slug}@example.test`, password: NEW_PASSWORD, role: "member" });
    const existing = await addMember({ email: other.user.email, password: NEW_PASSWORD, role: "member" });
    expect([fresh.status, existing.status]).toEqual([201, 201]);
    const shapeOf = (body: { member: Record<string, unknown> }) => Object.keys(body.member).sort();
    const [freshBody, existingBody] = [await fresh.json(), await existing.json()];
    expect(shapeOf(existingBody)).toEqual(shapeOf(freshBody));
    expect(existingBody.member).toMatchObject({ userId: other.user.id, email: other.user.email, role: "member" });
    // Joined now, not the other account's creation date.
    expect(new Date(existingBody.member.joinedAt).getTime()).toBeGreaterThan(other.user.createdAt.getTime());
    // Their own password still works; the first password typed by this admin does not replace it.
    expect(await authenticateCredentials(db, { email: other.user.email, password: NEW_PASSWORD, ip: `ip-${other.user.id}` })).toEqual({ ok: false, reason: "invalid" });
    expect(await requireAdminForRoute(appRequest("/api/x", { cookie: await sessionCookie({ userId: other.user.id, organizationId: other.organization.id }) }))).toMatchObject({ role: "admin" });
    const listed = (await (await getMembers(appRequest("/api/admin/members", { cookie: adminCookie }), noParams)).json()) as { members: { email: string }[] };
    expect(listed.members.map((m) => m.email)).toContain(other.user.email);
    // Nor does this organization's audit log tell them apart: the same action, the same detail.
    const { events } = (await (await getAudit(appRequest("/api/admin/audit", { cookie: adminCookie }), noParams)).json()) as {
      events: { action: string; target: string | null; detail: Record<string, unknown> }[];
    };
    const added = [freshBody.member.userId, other.user.id].map((userId) => events.find((event) => event.target === userId));
    expect(added.map((event) => [event?.action, Object.keys(event?.detail ?? {}).sort()])).toEqual([
      ["membership.added", ["email", "role"]],
      ["membership.added", ["email", "role"]],
    ]);
  });

  it("answers 400 with the reason for a short password or a bad role", async () => {
    const short = await addMember({ email: `short-${admin.organization.slug}@example.test`, password: "short", role: "member" });
    expect(short.status).toBe(400);
    expect(await short.json()).toEqual({ detail: "password: password must have at least 12 characters" });
    const role = await addMember({ email: `role-${admin.organization.slug}@example.test`, password: NEW_PASSWORD, role: "owner" });
    expect(role.status).toBe(400);
    expect(await role.json()).toEqual({ detail: "role: role must be admin or member" });
    const nul = await addMember({ email: `nul\u0000-${admin.organization.slug}@example.test`, password: NEW_PASSWORD, role: "member" });
    expect(nul.status).toBe(400);
    expect(await nul.json()).toEqual({ detail: "The request body holds a NUL character (\\u0000), which no field accepts." });
  });

  it("promotes and demotes, takes effect on the next request, and never demotes the last admin", async () => {
    const org = await seedOrganization(db);
    const cookie = await sessionCookie({ userId: org.user.id, organizationId: org.organization.id });
    const last = await setRole(org.user.id, "member", cookie);
    expect(last.status).toBe(409);
    expect(await last.json()).toEqual({
      detail: "An organization needs at least one administrator: make someone else an administrator first.",
    });

    const added = (await (await addMember({ email: `second-${org.organization.slug}@example.test`, password: NEW_PASSWORD, role: "member" }, cookie)).json()) as {
      member: { userId: string };
    };
    const secondCookie = await sessionCookie({ userId: added.member.userId, organizationId: org.organization.id });
    expect(((await requireAdminForRoute(appRequest("/api/x", { cookie: secondCookie }))) as Response).status).toBe(403);

    const promoted = await setRole(added.member.userId, "admin", cookie);
    expect(promoted.status).toBe(200);
    expect(await promoted.json()).toEqual({ member: { userId: added.member.userId, role: "admin" } });
    expect(await requireAdminForRoute(appRequest("/api/x", { cookie: secondCookie }))).toMatchObject({ role: "admin" });

    // The first admin steps down; the demoted session is refused at once (row 35).
    expect((await setRole(org.user.id, "member", cookie)).status).toBe(200);
    expect((await getMembers(appRequest("/api/admin/members", { cookie }), noParams)).status).toBe(403);
  });

  it("never demotes the last enabled admin, even while a disabled admin remains", async () => {
    const org = await seedOrganization(db);
    const cookie = await sessionCookie({ userId: org.user.id, organizationId: org.organization.id });
    const added = (await (await addMember({ email: `dormant-${org.organization.slug}@example.test`, password: NEW_PASSWORD, role: "admin" }, cookie)).json()) as {
      member: { userId: string };
    };
    await setMemberDisabled(db, { organizationId: org.organization.id, userId: added.member.userId, disabled: true, changedBy: org.user.id });
    const last = await setRole(org.user.id, "member", cookie);
    expect(last.status).toBe(409);
    expect(await last.json()).toEqual({ detail: "An organization needs at least one administrator: make someone else an administrator first." });
    // The disabled admin can be made a member: the organization keeps its enabled one.
    expect((await setRole(added.member.userId, "member", cookie)).status).toBe(200);
  });

  it("answers 404 for another organization's member and changes nothing there", async () => {
    const other = await seedOrganization(db);
    const response = await setRole(other.user.id, "member");
    expect(response.status).toBe(404);
    expect(await response.json()).toEqual({ detail: "Member not found." });
    const otherCookie = await sessionCookie({ userId: other.user.id, organizationId: other.organization.id });
    expect((await getMembers(appRequest("/api/admin/members", { cookie: otherCookie }), noParams)).status).toBe(200);
  });

  it("refuses a cross-site member POST with 403 and creates nobody", async () => {
    const email = `csrf-${admin.organization.slug}@example.test`;
    const response = await postMember(
      appRequest("/api/admin/members", { method: "POST", cookie: adminCookie, body: { email, password: NEW_PASSWORD, role: "admin" }, headers: { origin: "http://evil.test" } }),
      noParams,
    );
    expect(response.status).toBe(403);
    expect(await findUserByEmail(db, email)).toBeUndefined();
  });

  it("lists the organization's own audit events, actors named, and nothing of other organizations", async () => {
    const other = await seedOrganization(db);
    const response = await getAudit(appRequest("/api/admin/audit", { cookie: adminCookie }), noParams);
    expect(response.status).toBe(200);
    const { events } = (await response.json()) as { events: { action: string; actorEmail: string | null; target: string | null }[] };
    expect(events.map((event) => event.action)).toContain("membership.added");
    expect(events.find((event) => event.action === "membership.added" && event.actorEmail === admin.user.email)).toBeDefined();
    expect(events.some((event) => event.target === other.user.id)).toBe(false);
    expect(JSON.stringify(events)).not.toContain(NEW_PASSWORD);
  });
});
