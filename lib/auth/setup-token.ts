import "server-only";
import { timingSafeEqual } from "node:crypto";
import { rmSync } from "node:fs";
import path from "node:path";
import { readOrCreateSecretFile } from "./secret";

/**
 * First run: /onboarding makes whoever uses it the first admin, so it asks
 * for a one-time setup token that only the operator can know: SETUP_TOKEN
 * when set, otherwise one generated into .data/setup-token and printed by
 * `npm start` while the database has no user. Someone who merely reaches
 * the server first cannot take it over.
 */
const SETUP_TOKEN_FILE = path.join(process.cwd(), ".data", "setup-token");
const MIN_SETUP_TOKEN_LENGTH = 24;

export function expectedSetupToken(): string {
  const fromEnv = process.env.SETUP_TOKEN;
  if (fromEnv) {
    if (fromEnv.length < MIN_SETUP_TOKEN_LENGTH) throw new Error(`SETUP_TOKEN must have at least ${MIN_SETUP_TOKEN_LENGTH} characters`);
    return fromEnv;
  }
  return readOrCreateSecretFile(SETUP_TOKEN_FILE);
}

/** Compared in constant time; an empty or missing candidate never matches. */
export function isSetupToken(candidate: string | undefined): boolean {
  if (!candidate) return false;
  const expected = Buffer.from(expectedSetupToken());
  const given = Buffer.from(candidate.trim());
  return given.length === expected.length && timingSafeEqual(given, expected);
}

/** Once the first admin exists the token has done its job: a generated one is deleted. */
export function discardSetupToken(): void {
  if (!process.env.SETUP_TOKEN) rmSync(SETUP_TOKEN_FILE, { force: true });
}

/** The lines `npm start` prints on an empty database (the token itself only when it was generated). */
export function setupTokenAnnouncement(origin: string): string {
  const where = `${origin.replace(/\/$/, "")}/onboarding`;
  if (process.env.SETUP_TOKEN) return `No users yet: open ${where} and enter the SETUP_TOKEN you set.`;
  return `No users yet: open ${where} and enter this one-time setup token:\n\n    ${expectedSetupToken()}\n`;
}
