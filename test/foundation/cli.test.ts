import { execFile } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { closeDb, openDb } from "@/db/client";
import { parseApiKey, verifyApiKey } from "@/lib/keys";
import { TEST_PASSWORD } from "@/test/support/databases";

const TSX = path.join(process.cwd(), "node_modules/.bin/tsx");
const dataRoot = mkdtempSync(path.join(tmpdir(), "shipshape-cli-"));
const PGLITE_DIR = path.join(dataRoot, "pglite");

interface Run {
  code: number;
  stdout: string;
  stderr: string;
}

/** Runs an operator script as the operator would, against a private PGlite directory. */
function run(script: "users" | "keys", args: string[]): Promise<Run> {
  const env: NodeJS.ProcessEnv = { ...process.env, PGLITE_DIR };
  delete env.DATABASE_URL;
  return new Promise((resolve) => {
    execFile(TSX, [`scripts/${script}.ts`, ...args], { env, cwd: process.cwd() }, (error, stdout, stderr) => {
      resolve({ code: error ? Number(error.code ?? 1) : 0, stdout, stderr });
    });
  });
}

const lastLine = (text: string) => text.trimEnd().split("\n").at(-1) ?? "";

describe("operator CLI on PGlite", () => {
  const org = "cli-test-org";
  let sandboxKey = "";
  let productionKey = "";
  let productionId = "";

  beforeAll(async () => {
    const created = await run("users", ["create", "--email", "Ops@Example.test", "--password", TEST_PASSWORD, "--org", org, "--role", "admin"]);
    expect(created, created.stderr).toMatchObject({ code: 0 });
    expect(created.stdout).toContain("Created user ops@example.test");
  });
  afterAll(() => rmSync(dataRoot, { recursive: true, force: true }));

  it("creates keys and prints each alone on the last line of stdout", async () => {
    const sandbox = await run("keys", ["create", "--org", org, "--kind", "sandbox", "--name", "ci"]);
    expect(sandbox, sandbox.stderr).toMatchObject({ code: 0 });
    sandboxKey = lastLine(sandbox.stdout);
    expect(parseApiKey(sandboxKey)?.kind).toBe("sandbox");
    expect(sandbox.stdout).toMatch(/Expires: \d{4}-\d\d-\d\dT/);

    const production = await run("keys", ["create", "--org", org, "--kind", "production"]);
    expect(production, production.stderr).toMatchObject({ code: 0 });
    productionKey = lastLine(production.stdout);
    expect(parseApiKey(productionKey)?.kind).toBe("production");
    productionId = /key_[0-9A-Za-z]+/.exec(production.stdout)?.[0] ?? "";
    expect(productionId).not.toBe("");
  });

  it("lists keys by their visible start, never the key itself", async () => {
    const listed = await run("keys", ["list", "--org", org]);
    expect(listed, listed.stderr).toMatchObject({ code: 0 });
    expect(listed.stdout).toContain(productionId);
    expect(listed.stdout).toContain(sandboxKey.slice(0, 12));
    expect(listed.stdout).not.toContain(sandboxKey);
    expect(listed.stdout).not.toContain(productionKey);
  });

  it("revokes a key by id", async () => {
    const revoked = await run("keys", ["revoke", productionId]);
    expect(revoked, revoked.stderr).toMatchObject({ code: 0 });
    const again = await run("keys", ["revoke", productionId]);
    expect(again.code).toBe(1);
    expect(again.stderr).toContain(`no active API key with id ${productionId}`);
  });

  it("leaves keys that verify (and one revoked) in the database the app opens", async () => {
    const db = await openDb({ dataDir: PGLITE_DIR });
    try {
      expect(await verifyApiKey(db, sandboxKey)).toMatchObject({ ok: true, key: { kind: "sandbox" } });
      expect(await verifyApiKey(db, productionKey)).toEqual({ ok: false, reason: "revoked" });
    } finally {
      await closeDb(db);
    }
  });

  it("exits 1 with a clear message on bad arguments", async () => {
    const badKind = await run("keys", ["create", "--org", org, "--kind", "staging"]);
    expect(badKind.code).toBe(1);
    expect(badKind.stderr).toContain("--kind must be production or sandbox");
    expect(badKind.stdout).toBe("");

    const unknownOrg = await run("keys", ["create", "--org", "no-such-org", "--kind", "sandbox"]);
    expect(unknownOrg.code).toBe(1);
    expect(unknownOrg.stderr).toContain("organization no-such-org not found");

    const noCommand = await run("keys", []);
    expect(noCommand.code).toBe(1);
    expect(noCommand.stderr).toContain("usage:");

    const badRole = await run("users", ["create", "--email", "x@example.test", "--password", TEST_PASSWORD, "--org", org, "--role", "owner"]);
    expect(badRole.code).toBe(1);
    expect(badRole.stderr).toContain("--role must be admin or member");

    const weak = await run("users", ["create", "--email", "y@example.test", "--password", "short", "--org", org, "--role", "member"]);
    expect(weak.code).toBe(1);
    expect(weak.stderr).toContain("at least 12 characters");
  });
});
