import { defineConfig } from "@playwright/test";

/**
 * Browser tests against a production build in Debian's Chromium.
 * The config is evaluated in the runner and again in every worker: the run id
 * is fixed once here and inherited through the environment.
 */
process.env.E2E_RUN_ID ??= new Date().toISOString().replace(/\D/g, "").slice(0, 14) + `-${process.pid}`;

const PORT = Number(process.env.E2E_PORT ?? 3100);
const BASE_URL = `http://127.0.0.1:${PORT}`;
/** Building takes a few minutes on a shared 2-core machine; the analyze call reads a PDF. */
const SERVER_START_TIMEOUT_MS = 10 * 60_000;

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
  webServer: {
    command: "node_modules/.bin/tsx e2e/support/start-server.ts",
    url: `${BASE_URL}/signin`,
    timeout: SERVER_START_TIMEOUT_MS,
    reuseExistingServer: false,
    stdout: "pipe",
    stderr: "pipe",
    env: {
      E2E_RUN_ID: process.env.E2E_RUN_ID,
      E2E_PORT: String(PORT),
      NEXT_DIST_DIR: process.env.NEXT_DIST_DIR ?? ".next-e2e",
      NEXT_TELEMETRY_DISABLED: "1",
      NEXTAUTH_URL: BASE_URL,
    },
  },
});
