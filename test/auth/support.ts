/**
 * Shared by the auth and admin suites: the app's process-wide database pointed
 * at a test database, and real session cookies made with next-auth's own
 * encoder and the same secret the app reads.
 */
import { randomUUID } from "node:crypto";
import { encode } from "next-auth/jwt";
import { closeDb, getDb, type Db } from "@/db/client";
import { resetEnvForTests } from "@/lib/env";
import { testDatabaseUrl, type TestDatabase } from "@/test/support/databases";
import { freshPgliteDir } from "@/test/support/pglite-template";

export const APP_ORIGIN = "http://app.test";
const TEST_SECRET = "test-secret-0123456789-abcdefghijklmnopqrstuvwxyz";

/** Run before importing app modules' handlers: the origin and secret they will read. */
export function configureAuthEnv(): void {
  process.env.NEXTAUTH_SECRET = TEST_SECRET;
  process.env.NEXTAUTH_URL = APP_ORIGIN;
}

/** Points getDb() (what route handlers and guards use) at this test database. */
export async function useAppDatabase(database: TestDatabase): Promise<Db> {
  await closeDb();
  if (database.name === "pglite") {
    delete process.env.DATABASE_URL;
    process.env.PGLITE_DIR = freshPgliteDir();
  } else {
    // open() creates the shared test database when it is missing.
    await database.close(await database.open());
    process.env.DATABASE_URL = testDatabaseUrl();
  }
  resetEnvForTests();
  return getDb();
}

/** The claims the sign-in puts in the token; a fresh session id unless one is given. */
export interface TestSessionClaims {
  userId: string;
  organizationId: string;
  sessionId?: string;
  /** When the session signed in (ms since the epoch); now unless given. */
  signedInAt?: number;
}

/** A session cookie exactly as next-auth would set it after sign-in. */
export async function sessionCookie(claims: TestSessionClaims): Promise<string> {
  const token = await encode({ token: sessionToken(claims), secret: TEST_SECRET });
  return `shipshape.session=${token}`;
}

/** The token's payload as the jwt callback writes it. */
export function sessionToken(claims: TestSessionClaims): { sub: string; org: string; sid: string; sat: number } {
  return { sub: claims.userId, org: claims.organizationId, sid: claims.sessionId ?? randomUUID(), sat: claims.signedInAt ?? Date.now() };
}

/** A request as a same-origin browser page would send it. */
export function appRequest(
  path: string,
  init: { method?: string; cookie?: string; body?: unknown; headers?: Record<string, string> } = {},
): Request {
  const headers = new Headers(init.headers);
  if (init.cookie) headers.set("cookie", init.cookie);
  if (init.body !== undefined) headers.set("content-type", "application/json");
  if (!headers.has("origin") && init.method && init.method !== "GET") headers.set("origin", APP_ORIGIN);
  return new Request(APP_ORIGIN + path, {
    method: init.method ?? "GET",
    headers,
    body: init.body === undefined ? undefined : JSON.stringify(init.body),
  });
}
