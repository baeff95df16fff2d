import { randomBytes } from "node:crypto";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import type { Db } from "@/db/client";
import { resetEnvForTests } from "@/lib/env";
import { testDatabases } from "@/test/support/databases";
import { consumeRateLimit, limitForKind, rateLimitHeaders, type RateLimitResult } from "./rate-limit";

const newBucket = (label: string) => `test:${label}:${randomBytes(8).toString("hex")}`;
/** A long window keeps the emission interval far above test run time, so no token refills mid-test. */
const LONG_WINDOW = 3600;

describe.each(testDatabases())("consumeRateLimit on $name", (database) => {
  let db: Db;
  beforeAll(async () => {
    db = await database.open();
  });
  afterAll(() => database.close(db));

  it("admits exactly `limit` back-to-back requests, then refuses with Retry-After", async () => {
    const bucket = newBucket("burst");
    const limit = 5;
    const results: RateLimitResult[] = [];
    for (let i = 0; i <= limit; i++) {
      results.push(await consumeRateLimit(db, { bucket, limit, windowSeconds: LONG_WINDOW }));
    }
    expect(results.map((r) => r.allowed)).toEqual([true, true, true, true, true, false]);
    expect(results.map((r) => r.remaining)).toEqual([4, 3, 2, 1, 0, 0]);
    const refused = results[limit]!;
    // One token comes back after one emission interval, window / limit = 720 s.
    expect(refused.retryAfterSeconds).toBeGreaterThan(700);
    expect(refused.retryAfterSeconds).toBeLessThanOrEqual(720);
    expect(refused).toMatchObject({ limit, windowSeconds: LONG_WINDOW });
    expect(results[0]!.retryAfterSeconds).toBe(0);
  });

  it("reports the time until the bucket is full again", async () => {
    const bucket = newBucket("reset");
    const first = await consumeRateLimit(db, { bucket, limit: 4, windowSeconds: 60 });
    const second = await consumeRateLimit(db, { bucket, limit: 4, windowSeconds: 60 });
    expect(first.resetSeconds).toBe(15);
    expect(second.resetSeconds).toBe(30);
  });

  it("keeps buckets apart and defaults to a 60-second window", async () => {
    const a = newBucket("a");
    const b = newBucket("b");
    expect((await consumeRateLimit(db, { bucket: a, limit: 1 })).allowed).toBe(true);
    expect((await consumeRateLimit(db, { bucket: a, limit: 1 })).allowed).toBe(false);
    const other = await consumeRateLimit(db, { bucket: b, limit: 1 });
    expect(other).toMatchObject({ allowed: true, windowSeconds: 60, remaining: 0 });
  });

  it("admits exactly `limit` of 2 × limit concurrent requests", async () => {
    const bucket = newBucket("parallel");
    const limit = 10;
    const results = await Promise.all(
      Array.from({ length: 2 * limit }, () => consumeRateLimit(db, { bucket, limit, windowSeconds: LONG_WINDOW })),
    );
    expect(results.filter((r) => r.allowed)).toHaveLength(limit);
    expect(results.filter((r) => !r.allowed).every((r) => r.retryAfterSeconds >= 1)).toBe(true);
  });

  it("refuses nonsense parameters with a RangeError", async () => {
    await expect(consumeRateLimit(db, { bucket: "", limit: 1 })).rejects.toThrow(RangeError);
    await expect(consumeRateLimit(db, { bucket: "x", limit: 0 })).rejects.toThrow(RangeError);
    await expect(consumeRateLimit(db, { bucket: "x", limit: 1.5 })).rejects.toThrow(RangeError);
    await expect(consumeRateLimit(db, { bucket: "x", limit: 1, windowSeconds: 0 })).rejects.toThrow(RangeError);
  });
});

describe("consumeRateLimit across processes on postgresql", () => {
  const postgres = testDatabases().find((d) => d.name === "postgresql")!;
  let first: Db;
  let second: Db;
  beforeAll(async () => {
    // Two pools stand for two app instances: separate connections, one shared table.
    first = await postgres.open();
    second = await postgres.open();
  });
  afterAll(async () => {
    await postgres.close(first);
    await postgres.close(second);
  });

  it("admits exactly N of 2N requests fired in parallel through two connection pools", async () => {
    const bucket = newBucket("two-pools");
    const limit = 12;
    const results = await Promise.all(
      Array.from({ length: 2 * limit }, (_, i) =>
        consumeRateLimit(i % 2 === 0 ? first : second, { bucket, limit, windowSeconds: LONG_WINDOW }),
      ),
    );
    expect(results.filter((r) => r.allowed)).toHaveLength(limit);
    expect(results.filter((r) => !r.allowed)).toHaveLength(limit);
  });
});

describe("rateLimitHeaders", () => {
  const base = { limit: 20, windowSeconds: 60, resetSeconds: 42 };

  it("sends RateLimit-Policy and RateLimit on an admitted request, no Retry-After", () => {
    const headers = rateLimitHeaders({ ...base, allowed: true, remaining: 7, retryAfterSeconds: 0 }, "sandbox");
    expect(headers).toEqual({
      "RateLimit-Policy": '"sandbox";q=20;w=60',
      RateLimit: '"sandbox";r=7;t=42',
    });
  });

  it("adds Retry-After in whole seconds on a refusal", () => {
    const headers = rateLimitHeaders({ ...base, allowed: false, remaining: 0, retryAfterSeconds: 3 }, "production");
    expect(headers).toEqual({
      "RateLimit-Policy": '"production";q=20;w=60',
      RateLimit: '"production";r=0;t=42',
      "Retry-After": "3",
    });
  });

  it("refuses a policy name that would break the header syntax", () => {
    const result = { ...base, allowed: true, remaining: 1, retryAfterSeconds: 0 };
    expect(() => rateLimitHeaders(result, 'a";q=999')).toThrow(RangeError);
    expect(() => rateLimitHeaders(result, "")).toThrow(RangeError);
  });
});

describe("limitForKind", () => {
  const saved = { production: process.env.RATE_LIMIT_PRODUCTION, sandbox: process.env.RATE_LIMIT_SANDBOX };
  afterEach(() => {
    restore("RATE_LIMIT_PRODUCTION", saved.production);
    restore("RATE_LIMIT_SANDBOX", saved.sandbox);
    resetEnvForTests();
  });

  it("defaults to 120 per minute for production and 20 for sandbox", () => {
    delete process.env.RATE_LIMIT_PRODUCTION;
    delete process.env.RATE_LIMIT_SANDBOX;
    resetEnvForTests();
    expect(limitForKind("production")).toBe(120);
    expect(limitForKind("sandbox")).toBe(20);
  });

  it("reads RATE_LIMIT_PRODUCTION and RATE_LIMIT_SANDBOX", () => {
    process.env.RATE_LIMIT_PRODUCTION = "300";
    process.env.RATE_LIMIT_SANDBOX = "7";
    resetEnvForTests();
    expect(limitForKind("production")).toBe(300);
    expect(limitForKind("sandbox")).toBe(7);
  });
});

function restore(name: string, value: string | undefined): void {
  if (value === undefined) delete process.env[name];
  else process.env[name] = value;
}
