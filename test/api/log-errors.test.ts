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
