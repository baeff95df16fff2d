import { parseOptions } from "@node-rs/argon2";
import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Db } from "@/db/client";
import { listAuditEvents } from "@/db/queries/audit-events";
import { findMembership, findUserByEmail } from "@/db/queries/users";
import { organizations } from "@/db/schema";
import { TEST_PASSWORD, testDatabases, uniqueSlug } from "@/test/support/databases";
import { createUser } from "./create-user";
import { ApiError } from "@/lib/errors";
import { findOrganizationBySlug } from "./find-organization-by-slug";
import { OPERATOR } from "./operator";
import { verifyPassword } from "./password-hash";

describe.each(testDatabases())("createUser on $name", (database) => {
  let db: Db;
  beforeAll(async () => {
    db = await database.open();
  });
  afterAll(() => database.close(db));

  it("creates the organization, a lower-cased user with an argon2id hash, and an admin membership", async () => {
    const slug = uniqueSlug("users");
    const created = await createUser(db, { actor: OPERATOR,
      email: `  Ada.${slug}@Example.TEST `,
      password: TEST_PASSWORD,
      orgSlug: slug,
      role: "admin",
    });
    expect(created.organizationCreated).toBe(true);
    expect(created.user.email).toBe(`ada.${slug}@example.test`);
    expect(await findOrganizationBySlug(db, slug)).toEqual(created.organization);

    const stored = await findUserByEmail(db, created.user.email);
    expect(stored?.passwordHash).toMatch(/^\$argon2id\$v=19\$m=19456,t=2,p=1\$/);
    expect(parseOptions(stored!.passwordHash)).toMatchObject({ memoryCost: 19456, timeCost: 2, parallelism: 1 });
    expect(await verifyPassword(stored!.passwordHash, TEST_PASSWORD)).toBe(true);
    expect(await verifyPassword(stored!.passwordHash, `${TEST_PASSWORD}!`)).toBe(false);
    expect(await findMembership(db, { organizationId: created.organization.id, userId: created.user.id })).toMatchObject({
      role: "admin",
    });

    const [event] = await listAuditEvents(db, { organizationId: created.organization.id });
    expect(event).toMatchObject({ action: "user.created", actor: "operator", target: created.user.id });
    expect(JSON.stringify(event)).not.toContain(TEST_PASSWORD);
  });

  it("adds a second user to an existing organization without creating another", async () => {
    const slug = uniqueSlug("users");
    const first = await createUser(db, { actor: OPERATOR, email: `a@${slug}.test`, password: TEST_PASSWORD, orgSlug: slug, role: "admin" });
    const second = await createUser(db, { actor: OPERATOR, email: `b@${slug}.test`, password: TEST_PASSWORD, orgSlug: slug, role: "member" });
    expect(second.organizationCreated).toBe(false);
    expect(second.organization.id).toBe(first.organization.id);
    expect(await db.select().from(organizations).where(eq(organizations.slug, slug))).toHaveLength(1);
    expect(await findMembership(db, { organizationId: first.organization.id, userId: second.user.id })).toMatchObject({
      role: "member",
    });
  });

  it("refuses a second account for the same email in any case", async () => {
    const slug = uniqueSlug("users");
    await createUser(db, { actor: OPERATOR, email: `dup@${slug}.test`, password: TEST_PASSWORD, orgSlug: slug, role: "admin" });
    const again = createUser(db, { actor: OPERATOR, email: `DUP@${slug}.test`, password: TEST_PASSWORD, orgSlug: slug, role: "admin" });
    await expect(again).rejects.toThrow(ApiError);
    await expect(again).rejects.toMatchObject({ code: "conflict" });
  });

  it("rejects invalid input with a typed error that says what was wrong", async () => {
    const slug = uniqueSlug("users");
    const valid = { email: `v@${slug}.test`, password: TEST_PASSWORD, orgSlug: slug, role: "admin" as const, actor: OPERATOR };
    const cases = [
      [{ ...valid, email: "not-an-email" }, /email/],
      [{ ...valid, password: "short" }, /at least 12/],
      [{ ...valid, orgSlug: "Bad Slug!" }, /org/],
      [{ ...valid, role: "owner" as "admin" }, /role/],
      // No actor is no longer "the operator": whoever creates a user is named.
      [{ ...valid, actor: "" }, /actor/],
    ] as const;
    for (const [input, message] of cases) {
      await expect(createUser(db, input)).rejects.toMatchObject({ code: "invalid_input", message: expect.stringMatching(message) });
    }
    expect(await findOrganizationBySlug(db, slug)).toBeNull();
  });
});
