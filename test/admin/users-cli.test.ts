import { execFile } from "node:child_process";
import { rmSync } from "node:fs";
import path from "node:path";
import { and, eq, inArray } from "drizzle-orm";
import { afterAll, describe, expect, it } from "vitest";
import { closeDb, openDb } from "@/db/client";
import { auditEvents, memberships, users } from "@/db/schema";
import { authenticateCredentials } from "@/lib/auth/authenticate";
import { TEST_PASSWORD } from "@/test/support/databases";
import { freshPgliteDir } from "@/test/support/pglite-template";

const TSX = path.join(process.cwd(), "node_modules/.bin/tsx");
/** A migrated PGlite directory of its own (test/foundation/cli.test.ts has the scripts create theirs). */
const PGLITE_DIR = freshPgliteDir();

/** Runs `npm run users -- …` as the operator would, against a private PGlite directory. */
function users_(args: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  const env: NodeJS.ProcessEnv = { ...process.env, PGLITE_DIR };
  delete env.DATABASE_URL;
  return new Promise((resolve) => {
    execFile(TSX, ["scripts/users.ts", ...args], { env, cwd: process.cwd() }, (error, stdout, stderr) => {
      resolve({ code: error ? Number(error.code ?? 1) : 0, stdout, stderr });
    });
  });
}

/** PGlite serves one process at a time: the test opens the directory only between CLI runs. */
async function withDb<T>(work: (db: Awaited<ReturnType<typeof openDb>>) => Promise<T>): Promise<T> {
  const db = await openDb({ dataDir: PGLITE_DIR });
  try {
    return await work(db);
  } finally {
    await closeDb(db);
  }
}

describe("npm run users: offboarding verbs on PGlite", () => {
  afterAll(() => rmSync(PGLITE_DIR, { recursive: true, force: true }));
  const member = "worker@example.test";
  const as = (verb: string) => users_([verb, "--email", member, "--org", "cli-off"]);

  it("disables, enables, ends sessions, resets the password and removes a member, each audited as the operator", async () => {
    for (const [email, role] of [["boss@example.test", "admin"], [member, "member"]]) {
      const created = await users_(["create", "--email", email as string, "--password", TEST_PASSWORD, "--org", "cli-off", "--role", role as string]);
      expect(created, created.stderr).toMatchObject({ code: 0 });
    }
    const disabled = await as("disable");
    expect(disabled, disabled.stderr).toMatchObject({ code: 0, stdout: `Disabled ${member} in cli-off\n` });
    await withDb(async (db) => {
      expect(await authenticateCredentials(db, { email: member, password: TEST_PASSWORD, ip: "192.0.2.1" })).toEqual({ ok: false, reason: "invalid" });
    });
    expect(await as("enable")).toMatchObject({ code: 0, stdout: `Enabled ${member} in cli-off\n` });
    expect(await as("revoke-sessions")).toMatchObject({ code: 0, stdout: `Ended every session of ${member}\n` });

    const reset = await as("reset-password");
    expect(reset, reset.stderr).toMatchObject({ code: 0 });
    const temporary = reset.stdout.trimEnd().split("\n").at(-1) ?? "";
    expect(temporary).toMatch(/^[A-Za-z0-9_-]{22}$/);
    await withDb(async (db) => {
      expect(await authenticateCredentials(db, { email: member, password: temporary, ip: "192.0.2.2" })).toEqual({ ok: false, reason: "password_change_required" });
      const [row] = await db.select({ revokedAt: users.sessionsRevokedAt }).from(users).where(eq(users.email, member));
      expect(row?.revokedAt).toBeInstanceOf(Date);
    });

    expect(await as("remove")).toMatchObject({ code: 0, stdout: `Removed ${member} from cli-off\n` });
    await withDb(async (db) => {
      const [user] = await db.select({ id: users.id }).from(users).where(eq(users.email, member));
      expect(await db.select().from(memberships).where(eq(memberships.userId, user?.id ?? ""))).toEqual([]);
      const trail = await db
        .select({ action: auditEvents.action, actor: auditEvents.actor })
        .from(auditEvents)
        .where(and(eq(auditEvents.target, user?.id ?? ""), inArray(auditEvents.action, ["membership.disabled", "membership.enabled", "session.revoked_all", "user.password_reset", "membership.removed"])))
        .orderBy(auditEvents.id);
      expect(trail).toEqual(
        ["membership.disabled", "membership.enabled", "session.revoked_all", "user.password_reset", "membership.removed"].map((action) => ({ action, actor: "operator" })),
      );
    });
    // Each run starts tsx and opens PGlite: seconds apiece on a loaded machine.
  }, 300_000);

  it("says what is wrong: an unknown person, organization or command, and never removes the last admin", async () => {
    expect(await users_(["remove", "--email", "nobody@example.test", "--org", "cli-off"])).toMatchObject({ code: 1, stderr: "error: no user nobody@example.test\n" });
    expect(await users_(["remove", "--email", member, "--org", "no-such-org"])).toMatchObject({ code: 1, stderr: "error: no organization no-such-org\n" });
    const unknown = await users_(["vanish", "--email", member, "--org", "cli-off"]);
    expect(unknown.code).toBe(1);
    expect(unknown.stderr).toContain("error: unknown command: vanish");
    const last = await users_(["remove", "--email", "boss@example.test", "--org", "cli-off"]);
    expect(last).toMatchObject({ code: 1, stderr: "error: An organization needs at least one administrator: make someone else an administrator first.\n" });
  }, 180_000);
});
