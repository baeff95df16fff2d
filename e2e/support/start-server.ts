/**
 * Playwright's webServer: a production build (`next build`, skipped with
 * E2E_SKIP_BUILD=1 when .next-e2e already holds one), a fresh database (a new
 * PGlite directory, or DATABASE_URL when set), an admin and a member created
 * with the operator CLI, then `next start`. Run with tsx from the repo root.
 * With E2E_FIRST_RUN=1 it serves that build again over an empty database.
 */
import { spawn } from "node:child_process";
import { existsSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import path from "node:path";
import SERVER_NODE_FLAGS from "../../scripts/server-node-flags.json";
import { e2eAccount, e2eOrganizationSlug } from "./accounts";

const root = process.cwd();
const nextBin = path.join(root, "node_modules", "next", "dist", "bin", "next");
const tsxBin = path.join(root, "node_modules", ".bin", "tsx");
const port = process.env.E2E_PORT ?? "3100";
/** E2E_FIRST_RUN=1: serve the existing build over an empty database, with nobody seeded. */
const firstRun = process.env.E2E_FIRST_RUN === "1";

/** Runs a command to completion with the given environment; rejects on a non-zero exit. */
function run(command: string, args: string[], env: NodeJS.ProcessEnv): Promise<void> {
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, { cwd: root, env, stdio: "inherit" });
    child.on("error", reject);
    child.on("exit", (code) => (code === 0 ? resolve() : reject(new Error(`${path.basename(command)} ${args[0]} exited with ${code}`))));
  });
}

/**
 * `next build` adds its build directory's type folders to tsconfig.json when
 * they are missing; the e2e build must not leave the working tree changed.
 */
async function buildApp(env: NodeJS.ProcessEnv): Promise<void> {
  const tsconfig = path.join(root, "tsconfig.json");
  const original = readFileSync(tsconfig);
  try {
    await run(process.execPath, [nextBin, "build"], env);
  } finally {
    if (!readFileSync(tsconfig).equals(original)) writeFileSync(tsconfig, original);
  }
}

async function seedAccounts(env: NodeJS.ProcessEnv): Promise<void> {
  for (const role of ["admin", "member"] as const) {
    const { email, password } = e2eAccount(role);
    await run(tsxBin, ["scripts/users.ts", "create", "--email", email, "--password", password, "--org", e2eOrganizationSlug(), "--role", role], env);
  }
}

async function main(): Promise<void> {
  const env: NodeJS.ProcessEnv = { ...process.env, NEXT_TELEMETRY_DISABLED: "1" };
  const distDir = env.NEXT_DIST_DIR ?? ".next-e2e";
  const built = existsSync(path.join(root, distDir, "BUILD_ID"));
  if (firstRun) {
    // A second server on the main one's build, over an empty database of its own: the onboarding path.
    if (!built) throw new Error(`no build in ${distDir}: the main e2e server builds it first`);
    delete env.DATABASE_URL;
    env.PGLITE_DIR = path.join(root, ".data", `e2e-${env.E2E_RUN_ID}-first-run`);
  } else {
    if (!env.DATABASE_URL) env.PGLITE_DIR = path.join(root, ".data", `e2e-${env.E2E_RUN_ID}`);
    if (env.E2E_SKIP_BUILD !== "1" || !built) await buildApp(env);
    // The CLI opens PGlite itself and closes it before the server opens the same directory.
    await seedAccounts(env);
  }
  const server = spawn(process.execPath, [...SERVER_NODE_FLAGS, nextBin, "start", "--port", port, "--hostname", "127.0.0.1"], { cwd: root, env, stdio: "inherit" });
  for (const signal of ["SIGINT", "SIGTERM"] as const) process.on(signal, () => server.kill(signal));
  server.on("exit", (code) => {
    // Each run's PGlite directory is its own; a shared DATABASE_URL is left alone.
    if (env.PGLITE_DIR) rmSync(env.PGLITE_DIR, { recursive: true, force: true });
    process.exit(code ?? 0);
  });
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
