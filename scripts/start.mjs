// `npm start`: builds the app once if there is no production build, then serves it.
// The database (embedded PGlite in .data/ unless DATABASE_URL is set) is created
// and migrated by the app on its first request.
import { spawn } from "node:child_process";
import { existsSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { listenHostFor } from "./listen-host.mjs";
import SERVER_NODE_FLAGS from "./server-node-flags.json" with { type: "json" };

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
const nextBin = path.join(root, "node_modules", "next", "dist", "bin", "next");
const BUILD_MARKER = path.join(root, ".next", "BUILD_ID");
const DEFAULT_PORT = "3000";
const port = process.env.PORT ?? DEFAULT_PORT;
// Unset, the app would refuse to start in production (cookies without Secure on an unknown origin);
// a loopback origin keeps `npm start` working for a trial on this machine. Deployments set their https origin.
const env = { ...process.env, NEXT_TELEMETRY_DISABLED: "1", NEXTAUTH_URL: process.env.NEXTAUTH_URL ?? `http://localhost:${port}` };

/**
 * Runs `next <args>` with the given Node flags, forwarding SIGINT/SIGTERM so Ctrl-C stops the
 * child too; resolves with its exit code.
 */
function runNext(args, nodeFlags = []) {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [...nodeFlags, nextBin, ...args], { cwd: root, env, stdio: "inherit" });
    const forward = (signal) => child.kill(signal);
    process.on("SIGINT", forward);
    process.on("SIGTERM", forward);
    child.on("exit", (code, signal) => {
      process.off("SIGINT", forward);
      process.off("SIGTERM", forward);
      resolve(code ?? (signal ? 1 : 0));
    });
  });
}

if (!existsSync(BUILD_MARKER)) {
  console.log("No production build yet: running `next build` (once).");
  const code = await runNext(["build"]);
  if (code !== 0) process.exit(code);
}
// The server's V8 flags (server-node-flags.json): Node 22+ lets the young generation grow to 128 MB
// on a machine with much memory (Node 20: 32 MB), which a request-serving process with small
// short-lived allocations does not need; capped, the server's resident memory is the same on both.
// --no-liftoff: embedded PGlite's WebAssembly is compiled by V8's optimizing compiler when first
// called, not by its baseline compiler first (see the README, "Warm-up").
const host = listenHostFor(env.NEXTAUTH_URL, process.env.HOSTNAME);
process.exit(await runNext(["start", "--port", port, ...(host ? ["--hostname", host] : [])], SERVER_NODE_FLAGS));
