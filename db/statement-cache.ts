import { createHash } from "node:crypto";
import type pg from "pg";

/**
 * Server-side prepared statements for the app's parameterised statements, as
 * drivers elsewhere keep a statement cache (JDBC's prepareThreshold, pgx,
 * asyncpg). node-postgres sends an unnamed statement each time, which
 * PostgreSQL parses, analyses and plans again on every execution: naming them
 * cut an analyze request's backend CPU from 10.3 to 7.4 ms (endpoint-statements
 * --postgresql, four interleaved runs at load 8-10). A named one is
 * parsed once per connection, and PostgreSQL may keep its plan (plan_cache_mode).
 */

/**
 * Distinct statement texts given a name. The app's statements are a few dozen
 * shapes; a shape that varies with its input (an IN list of N values) must not
 * grow every connection's prepared statements without end, so past this many
 * texts further ones run unnamed, as before.
 */
const MAX_NAMED_TEXTS = 512;

const names = new Map<string, string>();

/** A name for `text`, the same in every connection (PostgreSQL's limit is 63 bytes). */
function nameOf(text: string): string | undefined {
  const known = names.get(text);
  if (known !== undefined || names.size >= MAX_NAMED_TEXTS) return known;
  const name = `s${createHash("sha256").update(text).digest("base64url").slice(0, 32)}`;
  names.set(text, name);
  return name;
}

interface QueryConfig {
  text?: unknown;
  name?: unknown;
  values?: unknown;
}

function hasValues(values: unknown): boolean {
  return Array.isArray(values) && values.length > 0;
}

/**
 * The statement named, when it is one to name: parameterised (a statement
 * without parameters goes by the simple protocol, which may carry several
 * statements and cannot be prepared) and not named by its caller.
 */
function named(config: unknown, values: unknown): unknown {
  if (typeof config === "string") return hasValues(values) ? { text: config, name: nameOf(config) } : config;
  if (typeof config !== "object" || config === null || "submit" in config) return config;
  const { text, name } = config as QueryConfig;
  if (typeof text !== "string" || name !== undefined) return config;
  if (!hasValues((config as QueryConfig).values) && !hasValues(values)) return config;
  return { ...config, name: nameOf(text) };
}

/** Makes `client` prepare each parameterised statement once and reuse it (see above). */
export function cacheStatements(client: pg.ClientBase): void {
  const query = client.query.bind(client) as (...args: unknown[]) => unknown;
  client.query = ((config: unknown, ...rest: unknown[]) => query(named(config, rest[0]), ...rest)) as typeof client.query;
}
