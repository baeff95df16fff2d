import { defineConfig } from "@playwright/test";
import { BASE_URL, E2E_PORT, FIRST_RUN_PORT, FIRST_RUN_SETUP_TOKEN, FIRST_RUN_URL } from "./e2e/support/servers";

/**
 * Browser tests against a production build in Debian's Chromium.
 * The config is evaluated in the runner and again in every worker: the run id
 * is fixed once here and inherited through the environment.
 */
process.env.E2E_RUN_ID ??= `${new Date().toISOString().replace(/\D/g, "").slice(0, 14)}-${process.pid}`;

/** Building takes a few minutes on a shared 2-core machine; the analyze call reads a PDF. */
const SERVER_START_TIMEOUT_MS = 10 * 60_000;
const SHUTDOWN_TIMEOUT_MS = 10_000;

const serverEnv = {
  E2E_RUN_ID: process.env.E2E_RUN_ID,
  NEXT_DIST_DIR: process.env.NEXT_DIST_DIR ?? ".next-e2e",
  NEXT_TELEMETRY_DISABLED: "1",
};

export default defineConfig({
  testDir: "e2e",
  // Only Playwright's own artefacts live here: other runners' reports in test-results/ are left alone.
  outputDir: "test-results/playwright",
  fullyParallel: false,
  workers: 1,
  retries: 0,
  timeout: 60_000,
  expect: { timeout: 10_000 },
  forbidOnly: Boolean(process.env.CI),
  reporter: [["list"], ["json", { outputFile: "test-results/playwright.json" }]],
  use: {
    baseURL: BASE_URL,
    trace: "retain-on-failure",
    screenshot: "only-on-failure",
    launchOptions: {
      executablePath: "/usr/bin/chromium",
      args: ["--no-sandbox", "--disable-gpu", "--disable-background-networking", "--disable-component-update", "--disable-sync", "--no-first-run"],
    },
  },
  projects: [
    { name: "setup", testMatch: /support\/.*\.setup\.ts/ },
    { name: "chromium", testMatch: /.*\.spec\.ts/, dependencies: ["setup"], use: { browserName: "chromium", viewport: { width: 1280, height: 800 } } },
  ],
  // Started in order: the first builds and seeds, the second reuses its build over an empty database.
  webServer: [
    {
      command: "node_modules/.bin/tsx e2e/support/start-server.ts",
      url: `${BASE_URL}/signin`,
      timeout: SERVER_START_TIMEOUT_MS,
      reuseExistingServer: false,
      // SIGTERM lets start-server.ts stop `next start` and delete the run's database directory.
      gracefulShutdown: { signal: "SIGTERM", timeout: SHUTDOWN_TIMEOUT_MS },
      stdout: "pipe",
      stderr: "pipe",
      env: { ...serverEnv, E2E_PORT: String(E2E_PORT), NEXTAUTH_URL: BASE_URL },
    },
    {
      command: "node_modules/.bin/tsx e2e/support/start-server.ts",
      url: `${FIRST_RUN_URL}/onboarding`,
      timeout: SERVER_START_TIMEOUT_MS,
      reuseExistingServer: false,
      // SIGTERM lets start-server.ts stop `next start` and delete the run's database directory.
      gracefulShutdown: { signal: "SIGTERM", timeout: SHUTDOWN_TIMEOUT_MS },
      stderr: "pipe",
      env: { ...serverEnv, E2E_FIRST_RUN: "1", E2E_PORT: String(FIRST_RUN_PORT), NEXTAUTH_URL: FIRST_RUN_URL, SETUP_TOKEN: FIRST_RUN_SETUP_TOKEN },
    },
  ],
});
