import { randomBytes } from "node:crypto";
import { and, eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Db } from "@/db/client";
import { auditEvents } from "@/db/schema";
import { authenticateCredentials, LOGIN_THROTTLE, type LoginThrottlePolicy } from "@/lib/auth/authenticate";
import { seedOrganization, testDatabases, TEST_PASSWORD } from "@/test/support/databases";

/** An address no other test or run shares, so IP buckets start empty. */
const freshIp = () => `198.51.100.${randomBytes(4).toString("hex")}`;

/** A window of seconds instead of minutes, so the test waits out a backoff instead of mocking the clock. */
const FAST: LoginThrottlePolicy = { accountLimit: 3, ipLimit: 100, accountWideLimit: 100, windowSeconds: 2 };
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describe.each(testDatabases())("sign-in on $name", (database) => {
  let db: Db;
  beforeAll(async () => {
    db = await database.open();
  });
  afterAll(() => database.close(db));

  it("accepts the right password, in any letter case of the e-mail, and names the home organization", async () => {
    const admin = await seedOrganization(db);
    const result = await authenticateCredentials(db, { email: admin.user.email.toUpperCase(), password: TEST_PASSWORD, ip: freshIp() });
    expect(result).toEqual({ ok: true, userId: admin.user.id, organizationId: admin.organization.id, email: admin.user.email });
  });

  it("refuses a wrong password, an unknown e-mail and an empty password alike, and audits without the password", async () => {
    const admin = await seedOrganization(db);
    const ip = freshIp();
    for (const attempt of [
      { email: admin.user.email, password: "wrong password entirely" },
      { email: `nobody-${admin.organization.slug}@example.test`, password: TEST_PASSWORD },
      { email: admin.user.email, password: "" },
    ]) {
      expect(await authenticateCredentials(db, { ...attempt, ip })).toEqual({ ok: false, reason: "invalid" });
    }
    const failures = await db
      .select()
      .from(auditEvents)
      .where(and(eq(auditEvents.organizationId, admin.organization.id), eq(auditEvents.action, "session.sign_in_failed")));
    expect(failures).toHaveLength(2);
    expect(JSON.stringify(failures)).not.toContain("wrong password");
    expect(failures[0]?.detail).toEqual({ ip });
  });

  it("throttles 20 bad attempts on one account from one address and refuses even the right password there meanwhile", async () => {
    const admin = await seedOrganization(db);
    const ip = freshIp();
    const policy: LoginThrottlePolicy = { accountLimit: 3, ipLimit: 100, accountWideLimit: 100, windowSeconds: 15 * 60 };
    const results = [];
    for (let i = 0; i < 20; i++) {
      results.push(await authenticateCredentials(db, { email: admin.user.email, password: `guess ${i}`, ip }, policy));
    }
    expect(results.slice(0, 3)).toEqual(Array(3).fill({ ok: false, reason: "invalid" }));
    expect(results.slice(3).every((result) => !result.ok && result.reason === "throttled")).toBe(true);
    const during = await authenticateCredentials(db, { email: admin.user.email, password: TEST_PASSWORD, ip }, policy);
    expect(during).toMatchObject({ ok: false, reason: "throttled" });
  });

  it("lets the right password in once the backoff it named has passed: no permanent lock-out", async () => {
    const admin = await seedOrganization(db);
    const ip = freshIp();
    const policy: LoginThrottlePolicy = { accountLimit: 1, ipLimit: 100, accountWideLimit: 100, windowSeconds: FAST.windowSeconds + 1 };
    await authenticateCredentials(db, { email: admin.user.email, password: "one wrong guess", ip }, policy);
    const during = await authenticateCredentials(db, { email: admin.user.email, password: TEST_PASSWORD, ip }, policy);
    if (during.ok || during.reason !== "throttled") throw new Error(`expected a throttled attempt, got ${JSON.stringify(during)}`);
    expect(during.retryAfterSeconds).toBeGreaterThanOrEqual(1);
    expect(during.retryAfterSeconds).toBeLessThanOrEqual(policy.windowSeconds);
    await sleep(during.retryAfterSeconds * 1000);
    expect(await authenticateCredentials(db, { email: admin.user.email, password: TEST_PASSWORD, ip }, policy)).toMatchObject({ ok: true });
  });

  it("never lets a stranger's failures lock the owner out: the owner's address has a bucket of its own", async () => {
    const admin = await seedOrganization(db);
    const policy: LoginThrottlePolicy = { accountLimit: 3, ipLimit: 100, accountWideLimit: 100, windowSeconds: 15 * 60 };
    const stranger = freshIp();
    const results = [];
    for (let i = 0; i < 10; i++) {
      results.push(await authenticateCredentials(db, { email: admin.user.email, password: `guess ${i}`, ip: stranger }, policy));
    }
    expect(results.slice(policy.accountLimit).every((result) => !result.ok && result.reason === "throttled")).toBe(true);
    const owner = await authenticateCredentials(db, { email: admin.user.email, password: TEST_PASSWORD, ip: freshIp() }, policy);
    expect(owner).toMatchObject({ ok: true, userId: admin.user.id });
  });

  it("throttles one address spraying many accounts", async () => {
    const ip = freshIp();
    const policy: LoginThrottlePolicy = { accountLimit: 100, ipLimit: 3, accountWideLimit: 100, windowSeconds: 60 };
    const results = [];
    for (let i = 0; i < 6; i++) {
      results.push(await authenticateCredentials(db, { email: `spray-${i}-${ip}@example.test`, password: "x".repeat(12), ip }, policy));
    }
    expect(results.slice(0, 3).every((result) => !result.ok && result.reason === "invalid")).toBe(true);
    expect(results.slice(3).every((result) => !result.ok && result.reason === "throttled")).toBe(true);
  });

  it("throttles guessing one account from many addresses, yet the owner still signs in where they have before", async () => {
    const admin = await seedOrganization(db);
    const policy: LoginThrottlePolicy = { accountLimit: 100, ipLimit: 100, accountWideLimit: 4, windowSeconds: 15 * 60 };
    const home = freshIp();
    expect(await authenticateCredentials(db, { email: admin.user.email, password: TEST_PASSWORD, ip: home }, policy)).toMatchObject({ ok: true });
    // A botnet: each address guesses once, far under its own buckets (the owner's first sign-in spent one of the four).
    const guesses = [];
    for (let i = 0; i < 10; i++) {
      guesses.push(await authenticateCredentials(db, { email: admin.user.email, password: `guess ${i}`, ip: freshIp() }, policy));
    }
    expect(guesses.slice(0, 3)).toEqual(Array(3).fill({ ok: false, reason: "invalid" }));
    expect(guesses.slice(3).every((result) => !result.ok && result.reason === "throttled")).toBe(true);
    // Even the right password from yet another new address waits: the guesser cannot tell it was right.
    expect(await authenticateCredentials(db, { email: admin.user.email, password: TEST_PASSWORD, ip: freshIp() }, policy)).toMatchObject({ reason: "throttled" });
    // The owner, from the address they signed in from, is not locked out by any of it.
    expect(await authenticateCredentials(db, { email: admin.user.email, password: TEST_PASSWORD, ip: home }, policy)).toMatchObject({ ok: true });
  });

  it("keeps the default policy slow to lock out and quick to recover", () => {
    expect(LOGIN_THROTTLE.accountLimit).toBeGreaterThanOrEqual(5);
    expect(LOGIN_THROTTLE.windowSeconds / LOGIN_THROTTLE.accountLimit).toBeLessThanOrEqual(120);
  });
});
