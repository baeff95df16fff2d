import { availableParallelism } from "node:os";
import { fileURLToPath } from "node:url";
import { configDefaults, defineConfig } from "vitest/config";

const root = fileURLToPath(new URL(".", import.meta.url));
// `server-only` throws outside React Server Components; tests import server modules directly.
const alias = { "@": root, "server-only": fileURLToPath(new URL("./test/support/server-only.ts", import.meta.url)) };

/**
 * The engine's tests and its fixtures' (pure functions: no database, no reader, no server, no environment
 * they leave changed, no module mocks). They run without isolation: each worker loads the engine once for all
 * of them instead of once per file (58 files, 900 tests, alone on 2 cores: 98 -> 63 s on the clock, processor
 * time 104 -> 80 s, import 29 -> 6 s).
 */
const ENGINE = ["lib/analysis/**/*.test.ts", "test/engine/**/*.test.ts", "test/fixtures/**/*.test.ts"];
const TIMEOUTS = { testTimeout: 60_000, hookTimeout: 120_000 };

export default defineConfig({
  test: {
    // At least two test files at once, where Vitest would run one on a 2-core machine (cores - 1): most of
    // a file's time is spent waiting on the processes it starts, the database and timers, not the processor.
    // Files running at once share the run's PostgreSQL database, kept apart by organization and by queue
    // name (test/support/queue-name.ts); admission caps count one queue; ports are the OS's pick (port 80
    // of test/support/loopback-servers.ts is waited for).
    maxWorkers: Math.max(2, availableParallelism() - 1),
    // The JSON report is what .ci/run counts (one per runtime, as it runs two at once); the default reporter is for people.
    reporters: ["default", ["json", { outputFile: process.env.VITEST_JSON_REPORT ?? "test-results/vitest.json" }]],
    projects: [
      { resolve: { alias }, test: { ...TIMEOUTS, name: "engine", include: ENGINE, isolate: false } },
      {
        resolve: { alias },
        test: {
          ...TIMEOUTS,
          name: "app",
          include: ["lib/**/*.test.ts", "test/**/*.test.ts", "db/**/*.test.ts", "app/**/*.test.ts"],
          exclude: [...configDefaults.exclude, ...ENGINE],
          setupFiles: ["test/support/queue-name.ts"],
          // Once per run: finds the PostgreSQL server for the tests, or starts one (and stops it at the end).
          globalSetup: ["test/support/global-setup.ts"],
        },
      },
    ],
  },
});
