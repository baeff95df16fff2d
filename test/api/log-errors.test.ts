import { execFileSync } from "node:child_process";
import { mkdirSync, mkdtempSync, realpathSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { pathToFileURL } from "node:url";
import { DrizzleQueryError } from "drizzle-orm";
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from "vitest";
import type { Db } from "@/db/client";
import { users } from "@/db/schema";
import { responseOfError } from "@/lib/http/error-response";
import { describeError } from "@/lib/log";
import { testDatabases, uniqueSlug } from "../support/databases";

/** What a failed query carries in drizzle's message: an e-mail and a password digest. */
const DIGEST = "$argon2id$v=19$m=19456,t=2,p=1$c2VjcmV0c2FsdA$aGFzaGhhc2hoYXNoaGFzaA";

describe.each(testDatabases())("server logs on $name", (database) => {
  let db: Db;
  let email: string;

  beforeAll(async () => {
    db = await database.open();
    email = `${uniqueSlug("log")}@tenant.example`;
    await db.insert(users).values({ id: uniqueSlug("usr"), email, passwordHash: DIGEST });
  });

  afterAll(async () => {
    await database.close(db);
  });

  afterEach(() => {
    vi.restoreAllMocks();
  });

  async function failedInsert(): Promise<unknown> {
    return db.insert(users).values({ id: uniqueSlug("usr"), email, passwordHash: DIGEST }).then(
      () => undefined,
      (error: unknown) => error,
    );
  }

  it("describe a failed query by the driver's code and message, without its parameters", async () => {
    const error = await failedInsert();
    expect(String(error)).toContain(email);
    const line = describeError(error);
    expect(line).toContain("[23505]");
    expect(line).toContain("duplicate key value violates unique constraint");
    expect(line).not.toContain(email);
    expect(line).not.toContain(DIGEST);
  });

  it("log a 500's request id and the error's code, never the e-mail or the digest the query held", async () => {
    const written: string[] = [];
    vi.spyOn(console, "error").mockImplementation((...args: unknown[]) => {
      written.push(args.map((arg) => (arg instanceof Error ? `${arg.stack} ${String(arg.cause)}` : String(arg))).join(" "));
    });
    const response = responseOfError(await failedInsert(), "req_log_test");
    expect(response.status).toBe(500);
    expect(written.join("\n")).toContain("req_log_test");
    expect(written.join("\n")).toContain("23505");
    expect(written.join("\n")).not.toContain(email);
    expect(written.join("\n")).not.toContain(DIGEST);
  });
});

/**
 * The Next build holds two copies of drizzle-orm: a query of one fails with
 * the other's DrizzleQueryError, which `instanceof` does not recognise. The
 * second copy is drizzle-orm hard-linked under another path, as
 * db/scope-second-drizzle.test.ts makes it.
 */
describe("server logs with a second copy of drizzle", () => {
  const root = mkdtempSync(path.join(tmpdir(), "shipshape-drizzle-copy-"));
  afterAll(() => rmSync(root, { recursive: true, force: true }));

  it("describe the other copy's failed query by the driver's code, never its text or parameters", async () => {
    const target = path.join(root, "node_modules", "drizzle-orm");
    mkdirSync(path.dirname(target), { recursive: true });
    try {
      execFileSync("cp", ["-al", realpathSync("node_modules/drizzle-orm"), target], { stdio: "ignore" });
    } catch {
      rmSync(target, { recursive: true, force: true });
      execFileSync("cp", ["-a", realpathSync("node_modules/drizzle-orm"), target]);
    }
    const copy = (await import(pathToFileURL(path.join(target, "errors.js")).href)) as { DrizzleQueryError: new (query: string, params: unknown[], cause?: Error) => Error };
    const cause = Object.assign(new Error('duplicate key value violates unique constraint "users_email_unique"'), { code: "23505" });
    const error = new copy.DrizzleQueryError('insert into "users" ("email", "password_hash") values ($1, $2)', ["ann@tenant.example", DIGEST], cause);
    expect(error instanceof DrizzleQueryError).toBe(false);
    const line = describeError(error);
    expect(line).toBe('Error [23505]: duplicate key value violates unique constraint "users_email_unique"');
  });
});
