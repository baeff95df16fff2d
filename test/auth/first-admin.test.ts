import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import type { Db } from "@/db/client";
import { findMembership } from "@/db/queries/users";
import { createFirstAdmin } from "@/lib/services/create-first-admin";
import { hasAnyUser } from "@/lib/services/has-any-user";
import { seedOrganization, testDatabases, TEST_PASSWORD } from "@/test/support/databases";

const SETUP_TOKEN = "a-setup-token-the-operator-set-0123";
vi.stubEnv("SETUP_TOKEN", SETUP_TOKEN);

const pglite = testDatabases().find((database) => database.name === "pglite");
if (!pglite) throw new Error("no PGlite test database");

describe("first-run admin on a fresh database (pglite)", () => {
  let db: Db;
  beforeAll(async () => {
    db = await pglite.open();
  });
  afterAll(() => pglite.close(db));

  it("refuses whoever reaches the server first without the setup token, and creates nobody", async () => {
    for (const setupToken of ["", "a-wrong-token-of-the-same-size-0123", `${SETUP_TOKEN}x`]) {
      await expect(createFirstAdmin(db, { organizationName: "Squatter", email: "squatter@example.test", password: TEST_PASSWORD, setupToken })).rejects.toMatchObject({
        code: "forbidden",
        message: "setupToken: enter the setup token that `npm start` printed (or the SETUP_TOKEN the operator set)",
      });
    }
    expect(await hasAnyUser(db)).toBe(false);
  });

  it("creates the organization and its admin once, and refuses every later attempt", async () => {
    expect(await hasAnyUser(db)).toBe(false);
    const created = await createFirstAdmin(db, { organizationName: "  Acme Trade Finance Ltd.  ", email: "Founder@Example.test", password: TEST_PASSWORD, setupToken: ` ${SETUP_TOKEN} ` });
    expect(created.organization).toMatchObject({ slug: "acme-trade-finance-ltd", name: "Acme Trade Finance Ltd." });
    expect(created.user.email).toBe("founder@example.test");
    expect(await findMembership(db, { organizationId: created.organization.id, userId: created.user.id })).toMatchObject({ role: "admin" });
    expect(await hasAnyUser(db)).toBe(true);

    await expect(createFirstAdmin(db, { organizationName: "Intruder", email: "intruder@example.test", password: TEST_PASSWORD, setupToken: SETUP_TOKEN })).rejects.toMatchObject({
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
      ["a", "b"].map((name) => createFirstAdmin(db, { organizationName: name, email: `${name}-first@example.test`, password: TEST_PASSWORD, setupToken: SETUP_TOKEN })),
    );
    expect(attempts.map((attempt) => attempt.status)).toEqual(["rejected", "rejected"]);
  });

  it("refuses an empty organization name before anything else", async () => {
    await expect(createFirstAdmin(db, { organizationName: "  ", email: "x@example.test", password: TEST_PASSWORD, setupToken: SETUP_TOKEN })).rejects.toMatchObject({ code: "invalid_input" });
  });
});

describe("the setup token npm start prints", () => {
  it("is generated once into .data/setup-token when SETUP_TOKEN is unset, printed whole, and only it is accepted", async () => {
    const { expectedSetupToken, isSetupToken, setupTokenAnnouncement } = await import("@/lib/auth/setup-token");
    vi.stubEnv("SETUP_TOKEN", "");
    try {
      const token = expectedSetupToken();
      expect(token).toMatch(/^[A-Za-z0-9_-]{43}$/);
      expect(expectedSetupToken()).toBe(token);
      expect(setupTokenAnnouncement("http://localhost:3000/")).toBe(`No users yet: open http://localhost:3000/onboarding and enter this one-time setup token:\n\n    ${token}\n`);
      expect(isSetupToken(token)).toBe(true);
      expect(isSetupToken(undefined)).toBe(false);
    } finally {
      vi.stubEnv("SETUP_TOKEN", SETUP_TOKEN);
    }
    expect(setupTokenAnnouncement("http://localhost:3000")).toBe("No users yet: open http://localhost:3000/onboarding and enter the SETUP_TOKEN you set.");
  });
});
