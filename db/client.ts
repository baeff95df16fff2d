import fs from "node:fs";
import path from "node:path";
import { PGlite, type Transaction } from "@electric-sql/pglite";
import { type ExtractTablesWithRelations, is } from "drizzle-orm";
import type { Logger } from "drizzle-orm/logger";
import { drizzle as drizzlePostgres } from "drizzle-orm/node-postgres";
import { migrate as migratePostgresSchema } from "drizzle-orm/node-postgres/migrator";
import type { PgDatabase, PgQueryResultHKT } from "drizzle-orm/pg-core";
import { drizzle as drizzlePglite, PgliteSession } from "drizzle-orm/pglite";
import { migrate as migratePgliteSchema } from "drizzle-orm/pglite/migrator";
import pg from "pg";
import { env } from "@/lib/env";
import * as schema from "./schema";
import { cacheStatements } from "./statement-cache";
import { currentScopeSettings, SET_SCOPE_STATEMENT, SET_TRANSACTION_SCOPE_STATEMENT, withSystemScope } from "./scope";

type Schema = typeof schema;

/**
 * A drizzle database on either driver (PostgreSQL through `pg`, or embedded PGlite).
 * A transaction handle is one too, so every query function taking a `Db` runs inside one.
 */
export type Db = PgDatabase<PgQueryResultHKT, Schema, ExtractTablesWithRelations<Schema>>;

export type OpenDbOptions = ({ url: string } | { dataDir: string }) & {
  /** After migrating, every connection takes this role (see DATABASE_APP_ROLE). */
  appRole?: string;
  /** PostgreSQL: each connection prepares a parameterised statement once (db/statement-cache.ts); default true (DATABASE_PREPARED_STATEMENTS). */
  preparedStatements?: boolean;
  /** Called with every SQL statement drizzle sends (tests count queries with it). */
  onQuery?: (query: string, params: unknown[]) => void;
};

/** Where the committed drizzle-kit migrations live; resolved from the working directory like Next does. */
const MIGRATIONS_FOLDER = path.join(process.cwd(), "db/migrations");

/**
 * Embedded PGlite keeps PostgreSQL's default 128 MB of shared buffers in its
 * WebAssembly memory, which never shrinks, inside the server's process. The
 * data an instance serves (one deployment's keys, jobs and analyses) is read
 * from files the OS caches anyway: 16 MB of buffers cut the server's resident
 * memory by about 120 MB (measured on an opened database, 245 → 124 MB).
 */
const PGLITE_SETTINGS = ["-c", "shared_buffers=16MB"];

/** PostgreSQL's type id of bytea. */
const BYTEA_OID = 17;

/**
 * bytea to and from PGlite's text protocol ("\x" and two hex digits a byte)
 * with Node's native hex codec. PGlite's own converters build the text one
 * byte at a time in JavaScript (Array.from, then toString(16) and padStart
 * for every byte; parseInt of every pair back), on the server's one thread:
 * 4 ms for a one-page invoice of 14 KB, every analyze request, and 1.5 s to
 * store an 8 MB scan and 0.65 s to read it back, during which no other
 * request moved. Node's codec does the same in 0.2 ms, 13 ms and 43 ms.
 */
const PGLITE_BYTEA = {
  serializers: {
    [BYTEA_OID]: (value: unknown): string => {
      if (!(value instanceof Uint8Array)) throw new Error("Invalid input for bytea type");
      return `\\x${Buffer.from(value.buffer, value.byteOffset, value.byteLength).toString("hex")}`;
    },
  },
  parsers: {
    [BYTEA_OID]: (text: string): Uint8Array => {
      // An unpooled buffer of its own, so the bytes handed out share no memory with other buffers.
      const bytes = Buffer.allocUnsafeSlow((text.length - 2) / 2);
      bytes.write(text.slice(2), "hex");
      return new Uint8Array(bytes.buffer, 0, bytes.length);
    },
  },
};

/** Arbitrary constant naming the advisory lock that serialises migrations across processes. */
const MIGRATION_LOCK_KEY = 7_305_114_201;

/** Connections per process; the API holds one per in-flight request for a few queries. */
const POOL_MAX_CONNECTIONS = 10;

const closers = new WeakMap<Db, () => Promise<void>>();
const cacheKey = Symbol.for("shipshape.db");
type DbCache = { [cacheKey]?: Promise<Db> };

/**
 * The process-wide database, migrated on first use. Cached on globalThis because
 * PGlite allows one process per data directory and Next may load this module twice.
 */
export function getDb(): Promise<Db> {
  const cache = globalThis as DbCache;
  const existing = cache[cacheKey];
  if (existing) return existing;
  const { DATABASE_URL, DATABASE_APP_ROLE, DATABASE_PREPARED_STATEMENTS, PGLITE_DIR } = env();
  const opening = openDb({
    ...(DATABASE_URL ? { url: DATABASE_URL } : { dataDir: PGLITE_DIR }),
    appRole: DATABASE_APP_ROLE,
    preparedStatements: DATABASE_PREPARED_STATEMENTS,
  });
  // A failed open (e.g. database down) must not poison the cache for the next request.
  opening.catch(() => {
    if (cache[cacheKey] === opening) delete cache[cacheKey];
  });
  cache[cacheKey] = opening;
  return opening;
}

/** Whether `db` (or a transaction on it) is embedded PGlite, which runs inside this process; PostgreSQL is a server of its own. */
export function isEmbedded(db: Db): boolean {
  return is(db._.session, PgliteSession);
}

/** Opens an independent, migrated database (tests use this for isolated instances). */
export async function openDb(options: OpenDbOptions): Promise<Db> {
  const logger: Logger | undefined = options.onQuery && { logQuery: options.onQuery };
  return "url" in options ? openPostgres(options.url, logger, options.appRole, options.preparedStatements ?? true) : openPglite(options.dataDir, logger, options.appRole);
}

/** Closes `db`, or the process-wide database when called without one. */
export async function closeDb(db?: Db): Promise<void> {
  const cache = globalThis as DbCache;
  let target = db;
  if (!target) {
    const cached = cache[cacheKey];
    delete cache[cacheKey];
    target = await cached?.catch(() => undefined);
  }
  if (!target) return;
  const close = closers.get(target);
  closers.delete(target);
  await close?.();
}

/**
 * The statement that makes a connection act as the app's role. Migrations run
 * as the connecting user (the tables' owner); requests then run as a role that
 * owns nothing, which row-level security binds.
 */
function setRoleStatement(role: string): string {
  return `SET ROLE ${roleName(role)}`;
}

/** A role name safe to write into a statement as it is. */
function roleName(role: string): string {
  if (!/^[a-z_][a-z0-9_]{0,62}$/.test(role)) throw new Error(`not a plain role name: ${role}`);
  return role;
}

async function openPostgres(url: string, logger: Logger | undefined, appRole: string | undefined, preparedStatements: boolean): Promise<Db> {
  if (!/^postgres(ql)?:\/\//.test(url)) {
    throw new Error("DATABASE_URL must be a postgres:// or postgresql:// URL");
  }
  const pool = new ScopedPool({ connectionString: url, max: POOL_MAX_CONNECTIONS });
  // Without a listener, an idle connection dropped by the server crashes the process (node-postgres #2635).
  pool.on("error", (error) => console.error(`database connection lost: ${error.message}`));
  try {
    await withSystemScope("migrations", () => migratePostgres(pool, appRole));
  } catch (error) {
    await pool.end();
    throw error;
  }
  // Each connection prepares a parameterised statement once (the migrating connection above is gone),
  // unless a pooler in transaction mode in front of PostgreSQL cannot carry prepared statements.
  if (preparedStatements) pool.on("connect", cacheStatements);
  if (appRole) {
    const statement = setRoleStatement(appRole);
    // Queued on the new connection before any query of the app's.
    pool.on("connect", (client) => void client.query(statement).catch((error: Error) => console.error(`SET ROLE failed: ${error.message}`)));
    // Fail closed: a role that is missing, or not granted to the connecting user, stops the start.
    const { rows } = await pool.query<{ current_user: string }>("SELECT current_user");
    if (rows[0]?.current_user !== appRole) {
      await pool.end();
      throw new Error(`DATABASE_APP_ROLE: the connection could not take the role ${appRole}`);
    }
  }
  const db: Db = drizzlePostgres({ client: pool, schema, logger });
  closers.set(db, () => pool.end());
  return db;
}

/** pg-boss's schema (its default name; the analysis queue does not change it). */
const QUEUE_SCHEMA = "pgboss";

/**
 * Hands pg-boss's schema to the app's role. pg-boss runs as that role and
 * must own its tables: it migrates them at a new version, and creating a
 * queue adds a partition to its job table. A database that ran before the
 * role existed (or without it) has the schema owned by the migrating user;
 * on a fresh one the role creates it at first start (migration 0011 lets it).
 */
function queueSchemaOwnershipStatement(appRole: string): string {
  const role = roleName(appRole);
  return `DO $$
DECLARE item record;
BEGIN
  IF NOT EXISTS (SELECT FROM pg_namespace WHERE nspname = '${QUEUE_SCHEMA}') THEN RETURN; END IF;
  IF (SELECT nspowner <> '${role}'::regrole FROM pg_namespace WHERE nspname = '${QUEUE_SCHEMA}') THEN
    ALTER SCHEMA ${QUEUE_SCHEMA} OWNER TO ${role};
  END IF;
  FOR item IN SELECT c.oid::regclass AS name FROM pg_class c
      WHERE c.relnamespace = '${QUEUE_SCHEMA}'::regnamespace AND c.relkind IN ('r', 'p', 'v', 'm') AND c.relowner <> '${role}'::regrole LOOP
    EXECUTE format('ALTER TABLE %s OWNER TO ${role}', item.name);
  END LOOP;
  -- Sequences a column owns moved with their table.
  FOR item IN SELECT c.oid::regclass AS name FROM pg_class c
      WHERE c.relnamespace = '${QUEUE_SCHEMA}'::regnamespace AND c.relkind = 'S' AND c.relowner <> '${role}'::regrole
        AND NOT EXISTS (SELECT FROM pg_depend d WHERE d.objid = c.oid AND d.deptype IN ('a', 'i')) LOOP
    EXECUTE format('ALTER SEQUENCE %s OWNER TO ${role}', item.name);
  END LOOP;
  FOR item IN SELECT p.oid::regprocedure AS name FROM pg_proc p
      WHERE p.pronamespace = '${QUEUE_SCHEMA}'::regnamespace AND p.proowner <> '${role}'::regrole LOOP
    EXECUTE format('ALTER ROUTINE %s OWNER TO ${role}', item.name);
  END LOOP;
  FOR item IN SELECT t.oid::regtype AS name FROM pg_type t
      WHERE t.typnamespace = '${QUEUE_SCHEMA}'::regnamespace AND t.typtype IN ('e', 'd') AND t.typowner <> '${role}'::regrole LOOP
    EXECUTE format('ALTER TYPE %s OWNER TO ${role}', item.name);
  END LOOP;
END $$`;
}

/** Several processes (app instances, test workers) may start at once; one migrates, the rest wait. */
async function migratePostgres(pool: pg.Pool, appRole: string | undefined): Promise<void> {
  const client = await pool.connect();
  try {
    await client.query("SELECT pg_advisory_lock($1)", [MIGRATION_LOCK_KEY]);
    try {
      await migratePostgresSchema(drizzlePostgres({ client }), { migrationsFolder: MIGRATIONS_FOLDER });
      if (appRole) await client.query(queueSchemaOwnershipStatement(appRole));
    } finally {
      await client.query("SELECT pg_advisory_unlock($1)", [MIGRATION_LOCK_KEY]);
    }
  } finally {
    // Destroyed, not pooled: it is the owner's connection, and the app's connections take the app's role.
    client.release(true);
  }
}

async function openPglite(dataDir: string, logger: Logger | undefined, appRole: string | undefined): Promise<Db> {
  if (!dataDir.startsWith("memory://")) fs.mkdirSync(dataDir, { recursive: true });
  const client = await PGlite.create(dataDir, { startParams: [...PGlite.defaultStartParams, ...PGLITE_SETTINGS], ...PGLITE_BYTEA });
  try {
    await migratePgliteSchema(drizzlePglite({ client }), { migrationsFolder: MIGRATIONS_FOLDER });
    if (appRole) await client.exec(setRoleStatement(appRole));
    // PGlite's only user is a superuser, whom row-level security does not bind: the scope matters under the app's role only.
    const shared: Db = drizzlePglite({ client: appRole ? scopedPglite(client) : client, schema, logger });
    closers.set(shared, () => client.close());
    return shared;
  } catch (error) {
    await client.close();
    throw error;
  }
}

/**
 * A pool whose every connection, each time it is taken, is set to the scope
 * of the code taking it (db/scope.ts): a connection never carries one
 * request's organization into the next. pg-pool's own `query` takes its
 * connection through `connect`, so single statements are scoped too.
 */
class ScopedPool extends pg.Pool {
  /**
   * The scope each connection was last set to. The setting is session-wide and
   * only this pool writes it (transactions change theirs locally, and it ends
   * with them), so a connection taken again in the scope it already has needs
   * no statement: on PostgreSQL that was 13 round trips of an analyze request's 35.
   */
  private readonly scopeOf = new WeakMap<pg.PoolClient, string>();

  override connect(): Promise<pg.PoolClient>;
  override connect(callback: (err: Error | undefined, client: pg.PoolClient | undefined, done: (release?: unknown) => void) => void): void;
  override connect(
    callback?: (err: Error | undefined, client: pg.PoolClient | undefined, done: (release?: unknown) => void) => void,
  ): Promise<pg.PoolClient> | undefined {
    const settings = currentScopeSettings();
    const scoped = super.connect().then(async (client) => {
      // Statements on tables without row-level security (withScopeKept) take the connection as it is.
      if (!settings) return client;
      const scope = settings.join("\u0000");
      if (this.scopeOf.get(client) === scope) return client;
      this.scopeOf.delete(client);
      try {
        await client.query(SET_SCOPE_STATEMENT, settings);
      } catch (error) {
        client.release(error as Error);
        throw error;
      }
      this.scopeOf.set(client, scope);
      return client;
    });
    if (!callback) return scoped;
    scoped.then(
      (client) => callback(undefined, client, (release) => client.release(release as Error | boolean | undefined)),
      (error: Error) => callback(error, undefined, () => undefined),
    );
    return undefined;
  }
}

/**
 * PGlite under the app's role: its one connection serves every request at
 * once, so each statement and each transaction runs in a transaction of its
 * own set to the caller's scope (set_config(…, true) ends with it).
 */
function scopedPglite(client: PGlite): PGlite {
  const inScope = <T>(settings: [string, string] | undefined, work: (tx: Transaction) => Promise<T>): Promise<T> =>
    client.transaction(async (tx) => {
      if (settings) await tx.query(SET_TRANSACTION_SCOPE_STATEMENT, settings);
      return work(tx);
    });
  const scoped: Pick<PGlite, "query" | "transaction" | "exec"> = {
    query: (text, params, options) => {
      const settings = currentScopeSettings();
      // Tables without row-level security (withScopeKept): the statement needs no scope, nor a transaction to hold one.
      if (!settings) return client.query(text, params, options);
      return inScope(settings, (tx) => tx.query(text, params, options));
    },
    transaction: (work) => inScope(currentScopeSettings(), work),
    // pg-boss's own scripts (its schema, maintenance): no organization-owned table.
    exec: (text, options) => client.exec(text, options),
  };
  return scoped as PGlite;
}
