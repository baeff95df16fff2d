import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Db } from "@/db/client";
import { findMembership } from "@/db/queries/users";
import { createFirstAdmin } from "@/lib/services/create-first-admin";
import { hasAnyUser } from "@/lib/services/has-any-user";
import { seedOrganization, testDatabases, TEST_PASSWORD } from "@/test/support/databases";

const pglite = testDatabases().find((database) => database.name === "pglite");
if (!pglite) throw new Error("no PGlite test database");

describe("first-run admin on a fresh database (pglite)", () => {
  let db: Db;
  beforeAll(async () => {
    db = await pglite.open();
  });
  afterAll(() => pglite.close(db));

  it("creates the organization and its admin once, and refuses every later attempt", async () => {
    expect(await hasAnyUser(db)).toBe(false);
    const created = await createFirstAdmin(db, { organizationName: "  Acme Trade Finance Ltd.  ", email: "Founder@Example.test", password: TEST_PASSWORD });
    expect(created.organization).toMatchObject({ slug: "acme-trade-finance-ltd", name: "Acme Trade Finance Ltd." });
    expect(created.user.email).toBe("founder@example.test");
    expect(await findMembership(db, { organizationId: created.organization.id, userId: created.user.id })).toMatchObject({ role: "admin" });
    expect(await hasAnyUser(db)).toBe(true);

    await expect(createFirstAdmin(db, { organizationName: "Intruder", email: "intruder@example.test", password: TEST_PASSWORD })).rejects.toMatchObject({
      code: "conflict",
      message: "This installation already has users: ask an administrator for an account.",
    });
  });
});

describe.each(testDatabases())("first-run admin with users present on $name", (database) => {
  let db: Db;
  beforeAll(async () => {
    db = await database.open();
    await seedOrganization(db);
  });
  afterAll(() => database.close(db));

  it("is refused, two at once included", async () => {
    const attempts = await Promise.allSettled(
      ["a", "b"].map((name) => createFirstAdmin(db, { organizationName: name, email: `${name}-first@example.test`, password: TEST_PASSWORD })),
    );
    expect(attempts.map((attempt) => attempt.status)).toEqual(["rejected", "rejected"]);
  });

  it("refuses an empty organization name before anything else", async () => {
    await expect(createFirstAdmin(db, { organizationName: "  ", email: "x@example.test", password: TEST_PASSWORD })).rejects.toMatchObject({ code: "invalid_input" });
  });
});
