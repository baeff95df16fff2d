import { createRequire } from "node:module";
import path from "node:path";
import type { AuthOptions } from "next-auth";
import { encode } from "next-auth/jwt";
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from "vitest";
import { closeDb, type Db } from "@/db/client";
import { authOptions } from "@/lib/auth/options";
import { signInErrorMessage } from "@/app/signin/error-message";
import { seedOrganization, testDatabases } from "@/test/support/databases";
import { APP_ORIGIN, configureAuthEnv, sessionToken, useAppDatabase } from "./support";

configureAuthEnv();

/** next-auth's framework-free handler, as session-lifetime.test.ts loads it (the package does not export it). */
const { AuthHandler } = createRequire(import.meta.url)(path.join(process.cwd(), "node_modules/next-auth/core/index.js")) as {
  AuthHandler: (params: { req: Request; options: AuthOptions }) => Promise<{
    body?: unknown;
    redirect?: string;
    status?: number;
    cookies?: Array<{ name: string; value: string }>;
  }>;
};

const HOST = new URL(APP_ORIGIN).host;

/** POST /api/auth/callback/credentials as the sign-in form sends it, CSRF token and cookie included. */
async function signIn(email: string, password: string) {
  const csrf = await AuthHandler({ req: new Request(`${APP_ORIGIN}/api/auth/csrf`, { headers: { host: HOST } }), options: authOptions() });
  const csrfCookie = csrf.cookies!.find((cookie) => cookie.name === "shipshape.csrf")!;
  const { csrfToken } = csrf.body as { csrfToken: string };
  return AuthHandler({
    req: new Request(`${APP_ORIGIN}/api/auth/callback/credentials`, {
      method: "POST",
      headers: { host: HOST, cookie: `${csrfCookie.name}=${csrfCookie.value}`, "content-type": "application/json" },
      // next-auth's handler reads a web Request's body as JSON.
      body: JSON.stringify({ csrfToken, email, password, json: "true" }),
    }),
    options: authOptions(),
  });
}

describe.each(testDatabases())("a sign-in whose query fails on $name", (database) => {
  let db: Db;
  beforeAll(async () => {
    db = await useAppDatabase(database);
  });
  afterAll(() => closeDb());
  afterEach(() => {
    vi.restoreAllMocks();
  });

  it("answers a code the sign-in page knows, never the query or the e-mail, and logs the driver's code without the e-mail", async () => {
    const person = await seedOrganization(db);
    const written: string[] = [];
    vi.spyOn(console, "error").mockImplementation((...args: unknown[]) => {
      written.push(args.map((arg) => (arg instanceof Error ? `${arg.stack} ${String(arg.cause)}` : String(arg))).join(" "));
    });
    // A NUL in the e-mail: the database refuses the look-up's parameter (22021), so the query fails.
    const email = `${person.user.email.replace("@", "\u0000@")}`;
    const response = await signIn(email, "any password at all");
    const redirect = decodeURIComponent(response.redirect ?? "");
    // next-auth sends the browser to its error route, which forwards the code to our sign-in page.
    expect(redirect).toMatch(/^http:\/\/app\.test\/api\/auth\/error\?error=/);
    const code = new URL(response.redirect!).searchParams.get("error")!;
    expect(code).toBe("SignInUnavailable");
    expect(signInErrorMessage(code)).toBe("Sign-in is not available just now. Try again in a moment.");
    for (const leaked of ["Failed query", "select", "params", person.user.email.split("@")[0]!]) expect(redirect).not.toContain(leaked);
    const log = written.join("\n");
    expect(log).toMatch(/\[sign-in [0-9a-f-]{36}\] internal error: /);
    expect(log).not.toContain(person.user.email.split("@")[0]!);
    expect(log).not.toContain("params");
  });

  it("logs a renewal whose query fails by next-auth's code and the driver's code, never the query's parameters", async () => {
    const person = await seedOrganization(db);
    const written: string[] = [];
    vi.spyOn(console, "error").mockImplementation((...args: unknown[]) => {
      written.push(args.map((arg) => (arg instanceof Error ? `${arg.stack} ${String(arg.cause)}` : String(arg))).join(" "));
    });
    // A session id the database refuses (a NUL) stands in for any failure of the renewal's look-up.
    const sessionId = `sid-${person.user.id}\u0000`;
    const token = await encode({ token: sessionToken({ userId: person.user.id, organizationId: person.organization.id, sessionId }), secret: process.env.NEXTAUTH_SECRET! });
    const response = await AuthHandler({
      req: new Request(`${APP_ORIGIN}/api/auth/session`, { headers: { host: HOST, cookie: `shipshape.session=${token}` } }),
      options: authOptions(),
    });
    expect(response.body).toEqual({});
    const log = written.join("\n");
    expect(log).toMatch(/^\[next-auth\] JWT_SESSION_ERROR: /);
    expect(log).not.toContain("params");
    expect(log).not.toContain(person.user.id);
  });
});
