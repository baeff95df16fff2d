import { randomUUID } from "node:crypto";
/**
 * Set-route tests call the real route handlers with real Requests. The
 * handlers read the process-wide database (getDb) and the session cookie, as
 * in production: a suite points getDb at its database through the
 * environment, and signs its users in with a session token encrypted by the
 * same secret and claims the app's sign-in writes.
 */
import { encode } from "next-auth/jwt";
import { vi } from "vitest";
import { closeDb, getDb, type Db } from "@/db/client";
import { sessionCookieName } from "@/lib/auth/cookies";
import { resolveAuthSecret } from "@/lib/auth/secret";
import { resetEnvForTests } from "@/lib/env";
import type { CreatedUser } from "@/lib/services";
import { countUnfinishedJobs } from "@/db/queries/analysis-jobs";
import { forgetAnalysisWorker, stopAnalysisQueue } from "@/lib/jobs";
import { testDatabaseUrl, type TestDatabase } from "../support/databases";
import { freshPgliteDir } from "../support/pglite-template";

const TEST_AUTH_SECRET = "sets-test-secret-0123456789abcdefghijklmnopqrstuvwxyz";
const ORIGIN = "http://app.test";

/** Points getDb() at the suite's database (a fresh PGlite, or the test PostgreSQL). */
export async function openProcessDb(database: TestDatabase, extraEnv: Record<string, string> = {}): Promise<Db> {
  await closeDb();
  vi.stubEnv("NEXTAUTH_SECRET", TEST_AUTH_SECRET);
  vi.stubEnv("NEXTAUTH_URL", ORIGIN);
  for (const [name, value] of Object.entries(extraEnv)) vi.stubEnv(name, value);
  if (database.name === "postgresql") {
    await database.close(await database.open()); // creates the test database when missing
    vi.stubEnv("DATABASE_URL", testDatabaseUrl());
  } else {
    vi.stubEnv("DATABASE_URL", "");
    vi.stubEnv("PGLITE_DIR", freshPgliteDir());
  }
  resetEnvForTests();
  // An empty DATABASE_URL would fail zod's url check: drop it for PGlite.
  if (database.name === "pglite") delete process.env.DATABASE_URL;
  return getDb();
}

/** Waits until every analysis job of the callers' organizations has ended (done or failed). */
export async function settleAnalyses(...callers: { organizationId: string }[]): Promise<void> {
  const db = await getDb();
  for (const { organizationId } of callers) {
    while ((await countUnfinishedJobs(db, { organizationId })) > 0) await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

export async function closeProcessDb(): Promise<void> {
  const db = await getDb();
  await stopAnalysisQueue(db, { graceful: false, destroy: true });
  forgetAnalysisWorker(db);
  await closeDb();
  vi.unstubAllEnvs();
  resetEnvForTests();
}

/** The Cookie header of a signed-in user: the claims the sign-in puts in the token (user, organization, session, sign-in time). */
async function sessionCookie(user: { userId: string; organizationId: string }): Promise<string> {
  const token = await encode({ token: { sub: user.userId, org: user.organizationId, sid: randomUUID(), sat: Date.now() }, secret: resolveAuthSecret() });
  return `${sessionCookieName()}=${token}`;
}

export interface Caller {
  userId: string;
  organizationId: string;
  cookie: string;
}

export async function callerOf(created: CreatedUser): Promise<Caller> {
  const ids = { userId: created.user.id, organizationId: created.organization.id };
  return { ...ids, cookie: await sessionCookie(ids) };
}

/** A request as the browser sends it from our pages (same-origin fetch), signed in as `caller` when given. */
export function appRequest(
  path: string,
  init: { method?: string; caller?: Caller; json?: unknown; body?: BodyInit; headers?: Record<string, string>; crossSite?: boolean } = {},
): Request {
  const headers = new Headers(init.headers);
  if (init.caller) headers.set("cookie", init.caller.cookie);
  headers.set("sec-fetch-site", init.crossSite ? "cross-site" : "same-origin");
  let body = init.body;
  if (init.json !== undefined) {
    headers.set("content-type", "application/json");
    body = JSON.stringify(init.json);
  }
  return new Request(new URL(path, ORIGIN), { method: init.method ?? "GET", headers, body });
}

/** A multipart form with one file field. */
export function fileForm(bytes: Uint8Array, name: string): FormData {
  const form = new FormData();
  form.set("file", new Blob([new Uint8Array(bytes)]), name);
  return form;
}
