import { fileURLToPath } from "node:url";
import { defineConfig } from "vitest/config";

const root = fileURLToPath(new URL(".", import.meta.url));
// `server-only` throws outside React Server Components; tests import server modules directly.
const alias = { "@": root, "server-only": fileURLToPath(new URL("./test/support/server-only.ts", import.meta.url)) };

export default defineConfig({
  resolve: { alias },
  test: {
    testTimeout: 60_000,
    setupFiles: ["test/support/queue-name.ts"],
    hookTimeout: 120_000,
    // The JSON report is what .ci/run counts (one per runtime, as it runs two at once); the default reporter is for people.
    reporters: ["default", ["json", { outputFile: process.env.VITEST_JSON_REPORT ?? "test-results/vitest.json" }]],
    // Once per run: finds the PostgreSQL server for the tests, or starts one (and stops it at the end).
    globalSetup: ["test/support/global-setup.ts"],
    include: ["lib/**/*.test.ts", "test/**/*.test.ts", "db/**/*.test.ts", "app/**/*.test.ts"],
  },
});
