import { and, eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import * as setRoute from "@/app/api/sets/[id]/route";
import * as setsRoute from "@/app/api/sets/route";
import type { Db } from "@/db/client";
import { auditEvents, documentSets } from "@/db/schema";
import { createUser, type CreatedUser, OPERATOR } from "@/lib/services";
import { seedOrganization, testDatabases, TEST_PASSWORD } from "@/test/support/databases";
import { appRequest, callerOf, closeProcessDb, openProcessDb, type Caller } from "@/test/sets/support";

const params = (id: string) => ({ params: Promise.resolve({ id }) });

describe.each(testDatabases())("deleting a document set on $name", (database) => {
  let db: Db;
  let organization: CreatedUser;
  let admin: Caller;
  let creator: Caller;
  let colleague: Caller;

  beforeAll(async () => {
    db = await openProcessDb(database);
    organization = await seedOrganization(db, { prefix: "set-delete" });
    admin = await callerOf(organization);
    const member = (name: string) =>
      createUser(db, { actor: OPERATOR, email: `${name}-${organization.organization.slug}@example.test`, password: TEST_PASSWORD, orgSlug: organization.organization.slug, role: "member" });
    creator = await callerOf(await member("creator"));
    colleague = await callerOf(await member("colleague"));
  });
  afterAll(closeProcessDb);

  async function createSet(caller: Caller, name: string): Promise<string> {
    const response = await setsRoute.POST(appRequest("/api/sets", { method: "POST", caller, json: { name } }));
    expect(response.status).toBe(201);
    return ((await response.json()) as { id: string }).id;
  }
  const remove = (caller: Caller, setId: string) => setRoute.DELETE(appRequest(`/api/sets/${setId}`, { method: "DELETE", caller }), params(setId));
  const exists = async (setId: string) => (await db.select().from(documentSets).where(eq(documentSets.id, setId))).length === 1;
  const deletions = (setId: string) =>
    db
      .select({ actor: auditEvents.actor, detail: auditEvents.detail })
      .from(auditEvents)
      .where(and(eq(auditEvents.organizationId, organization.organization.id), eq(auditEvents.action, "document_set.deleted"), eq(auditEvents.target, setId)));

  it("refuses another member of the organization with 403 and keeps the set", async () => {
    const setId = await createSet(creator, "Creator's set");
    const refused = await remove(colleague, setId);
    expect(refused.status).toBe(403);
    expect(await refused.json()).toEqual({ detail: "Only the member who created this set or an administrator can delete it." });
    expect(await exists(setId)).toBe(true);
    expect(await deletions(setId)).toEqual([]);
  });

  it("lets the creator delete their set, audited with who and which", async () => {
    const setId = await createSet(creator, "Mine to delete");
    expect((await remove(creator, setId)).status).toBe(204);
    expect(await exists(setId)).toBe(false);
    expect(await deletions(setId)).toEqual([{ actor: creator.userId, detail: { name: "Mine to delete" } }]);
  });

  it("lets an admin delete anyone's set, audited", async () => {
    const setId = await createSet(creator, "Cleared by the admin");
    expect((await remove(admin, setId)).status).toBe(204);
    expect(await exists(setId)).toBe(false);
    expect(await deletions(setId)).toEqual([{ actor: admin.userId, detail: { name: "Cleared by the admin" } }]);
  });

  it("answers 404 to another organization's admin and keeps the set", async () => {
    const setId = await createSet(creator, "Not theirs");
    const stranger = await callerOf(await seedOrganization(db, { prefix: "set-delete-other" }));
    const refused = await remove(stranger, setId);
    expect(refused.status).toBe(404);
    expect(await refused.json()).toEqual({ detail: "No such document set." });
    expect(await exists(setId)).toBe(true);
  });
});
