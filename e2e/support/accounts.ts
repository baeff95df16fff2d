/**
 * The accounts every e2e run creates through the operator CLI before the
 * server starts (see start-server.ts), and where each role's signed-in
 * browser state is saved. E2E_RUN_ID is fixed once per run by
 * playwright.config.ts, so every worker and the server agree on the names
 * even against a shared PostgreSQL.
 */
import path from "node:path";

const E2E_PASSWORD = "e2e password, long enough";

function runId(): string {
  const id = process.env.E2E_RUN_ID;
  if (!id) throw new Error("E2E_RUN_ID is unset: run the e2e tests through playwright.config.ts");
  return id;
}

export function e2eOrganizationSlug(): string {
  return `e2e-${runId()}`;
}

export function e2eAccount(role: "admin" | "member"): { email: string; password: string } {
  return { email: `${role}-${runId()}@example.test`, password: E2E_PASSWORD };
}

/** Saved cookies of a signed-in admin and member: `test.use({ storageState: STORAGE_STATE.admin })`. */
export const STORAGE_STATE = {
  admin: path.join("test-results", ".auth", "admin.json"),
  member: path.join("test-results", ".auth", "member.json"),
} as const;

/** Where specs save page screenshots for people to look at (kept as CI artefacts). */
export const SCREENSHOT_DIR = path.join("test-results", "screenshots");
