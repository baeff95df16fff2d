import { readdirSync, readFileSync } from "node:fs";
import { join, relative } from "node:path";
import { describe, expect, it } from "vitest";
import { SCOPE_FREE_TABLES, SYSTEM_SCOPE_REASONS } from "@/db/scope";

/**
 * The system scope lets a query see every organization's rows (db/scope.ts).
 * Each place that enters it is listed here with its reason: a new one fails
 * this test until a reviewer adds it, so the list is the audit.
 */
const EXPECTED_SYSTEM_SCOPES = [
  "db/client.ts: migrations",
  "lib/api/upload-chunks.ts: abandoned uploads",
  "lib/api/warm-up.ts: start-up warm-up",
  "lib/auth/options.ts: sign-in",
  "lib/jobs/admission.ts: job admission",
  "lib/keys/verify.ts: api-key lookup",
  "lib/services/create-first-admin.ts: first run",
  "lib/services/reset-member-password.ts: admin reset",
  "scripts/keys.ts: operator",
  "scripts/users.ts: operator",
];

const ROOT = process.cwd();
const SOURCE_DIRECTORIES = ["app", "components", "db", "lib", "scripts"];

function sourceFiles(directory: string): string[] {
  return readdirSync(directory, { withFileTypes: true }).flatMap((entry) => {
    const path = join(directory, entry.name);
    if (entry.isDirectory()) return sourceFiles(path);
    return /\.tsx?$/.test(entry.name) && !/\.test\.tsx?$/.test(entry.name) ? [path] : [];
  });
}

/** Every call that enters the system scope, as "file: reason"; a reason that is not a string literal shows as "?". */
function systemScopeCalls(): string[] {
  const calls: string[] = [];
  for (const file of SOURCE_DIRECTORIES.flatMap((directory) => sourceFiles(join(ROOT, directory)))) {
    const name = relative(ROOT, file);
    if (name === "db/scope.ts") continue;
    const text = readFileSync(file, "utf8");
    for (const match of text.matchAll(/withSystemScope(?:InTransaction)?\(\s*(?:\w+\s*,\s*)?("([^"]*)")?/g)) {
      calls.push(`${name}: ${match[2] ?? "?"}`);
    }
  }
  return [...new Set(calls)].sort();
}

/**
 * Every place whose statements take a connection in whatever scope it has (withScopeKept), as "file: tables".
 * The analysis queue's take enters the scopes it needs itself (migration 0022: the claim in its job's organization's).
 */
const EXPECTED_SCOPE_KEPT = ["db/queries/rate-limits.ts: rate limits", "lib/jobs/analysis-queue.ts: job queue", "lib/jobs/sql-executor.ts: job queue"];

function scopeKeptCalls(): string[] {
  const calls: string[] = [];
  for (const file of SOURCE_DIRECTORIES.flatMap((directory) => sourceFiles(join(ROOT, directory)))) {
    const name = relative(ROOT, file);
    if (name === "db/scope.ts") continue;
    for (const match of readFileSync(file, "utf8").matchAll(/withScopeKept\(\s*("([^"]*)")?/g)) calls.push(`${name}: ${match[2] ?? "?"}`);
  }
  return [...new Set(calls)].sort();
}

describe("statements that keep a connection's scope", () => {
  it("are only those the audit list names, on tables no organization owns", () => {
    expect(scopeKeptCalls()).toEqual(EXPECTED_SCOPE_KEPT);
    expect(new Set(EXPECTED_SCOPE_KEPT.map((entry) => entry.split(": ")[1]))).toEqual(new Set(Object.keys(SCOPE_FREE_TABLES)));
  });
});

describe("the system scope", () => {
  it("is entered only where the audit list says, each time for a named reason", () => {
    expect(systemScopeCalls()).toEqual(EXPECTED_SYSTEM_SCOPES);
  });

  it("has no reason nobody uses", () => {
    const used = new Set(EXPECTED_SYSTEM_SCOPES.map((entry) => entry.split(": ")[1]));
    expect(Object.keys(SYSTEM_SCOPE_REASONS).filter((reason) => !used.has(reason))).toEqual([]);
  });
});
