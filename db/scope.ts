import { AsyncLocalStorage } from "node:async_hooks";
import { is, sql } from "drizzle-orm";
import { PgTransaction } from "drizzle-orm/pg-core";
import type { Db } from "./client";
import { queryRows } from "./queries/rows";

/**
 * Whose rows the database lets a query see (row-level security, migrations
 * 0011 and 0014). Every connection the app takes from its pool is set, at the
 * moment it is taken, to the scope of the code that takes it:
 * - an organization's: its own rows only;
 * - the system's, named by its reason: every organization's rows;
 * - none (the default): no organization-owned row at all.
 * So a query that forgets its organization filter reads only the request's
 * organization, and code that runs outside any scope reads nothing.
 *
 * Request paths enter an organization's scope in their wrappers (cookie routes,
 * keyed API routes, pages) and the job worker in each job's. The few paths that
 * must look across organizations name their reason below; `withSystemScope(` finds
 * every one (test/foundation/system-scope.test.ts lists them).
 */
export const SYSTEM_SCOPE_REASONS = {
  /** Sign-in finds a person's memberships by e-mail before any organization is known. */
  "sign-in": true,
  /** A presented API key is found by its digest before its organization is known. */
  "api-key lookup": true,
  /**
   * Admission counts every organization's unfinished jobs against the server-wide cap (migration
   * 0018's admission_counts enters this scope by itself), and reads their mean duration for Retry-After.
   */
  "job admission": true,
  /** An admin's reset checks whether the person also belongs to another organization. */
  "admin reset": true,
  /** The first run creates the first organization and its admin. */
  "first run": true,
  /** The operator's command-line tools act on any organization. */
  operator: true,
  /** At start, uploads whose request died mid-body are removed, whichever organization sent them. */
  "abandoned uploads": true,
  /** At start, the server's own warm-up organization is made, used and removed with its rows (lib/api/warm-up.ts). */
  "start-up warm-up": true,
  /** Schema migrations, run by the tables' owner. */
  migrations: true,
} as const;

export type SystemScopeReason = keyof typeof SYSTEM_SCOPE_REASONS;

/**
 * Tables no organization owns, so no row-level security covers them: a
 * statement that touches only these runs on a connection in whatever scope
 * it already has (withScopeKept), and taking one costs no statement that sets
 * it. On PostgreSQL the analysis queue's statements were three of an analyze
 * request's set_config round trips, each between two of the organization's.
 * Such a statement may also call a database function that sets its own scope
 * for itself (migrations 0018 and 0020 enter the system scope in their SET
 * clause, whatever the connection's): the rate limit's statement brings the
 * job counts of admission_counts, and the queue's fetch counts running jobs in
 * fetch_analysis_entry; each answers counts or queue entries. One enters an
 * organization's scope for itself: migration 0022's take_analysis_entry claims
 * the job of the entry it took in that job's organization scope, set for the
 * claim alone.
 */
export const SCOPE_FREE_TABLES = {
  /** pg-boss's own tables (pgboss.*): its entries carry ids only. */
  "job queue": true,
  /** Rate-limit buckets, keyed by name (sign-in and key-miss buckets exist before anyone is known). */
  "rate limits": true,
} as const;

export type ScopeFreeTables = keyof typeof SCOPE_FREE_TABLES;

type Scope = { organizationId: string } | { system: SystemScopeReason } | { scopeFree: ScopeFreeTables };

/**
 * One store per process, on globalThis like the database itself (client.ts):
 * Next bundles this module more than once (instrumentation, each route), and
 * the pool that reads the scope must see the one the route entered.
 */
const storeKey = Symbol.for("shipshape.db-scope");
const scopes: AsyncLocalStorage<Scope> = ((globalThis as { [storeKey]?: AsyncLocalStorage<Scope> })[storeKey] ??= new AsyncLocalStorage<Scope>());

/**
 * What the connection settings app.organization_id and app.system_scope are
 * for the current scope; undefined inside withScopeKept (any will do).
 */
export function currentScopeSettings(): [organizationId: string, system: string] | undefined {
  const scope = scopes.getStore();
  if (!scope) return ["", ""];
  if ("scopeFree" in scope) return undefined;
  return "system" in scope ? ["", scope.system] : [scope.organizationId, ""];
}

/**
 * Runs `work`, whose statements touch only `tables` (SCOPE_FREE_TABLES), on
 * connections in whatever scope they have. Never for a statement that reads or
 * writes an organization's rows: the scope it meets is any request's.
 */
export function withScopeKept<T>(tables: ScopeFreeTables, work: () => Promise<T>): Promise<T> {
  if (!(tables in SCOPE_FREE_TABLES)) throw new Error(`unknown scope-free tables: ${tables}`);
  return scopes.run({ scopeFree: tables }, work);
}

/** Runs `work` in one organization's scope: its queries see that organization's rows only. */
export function withOrganizationScope<T>(organizationId: string, work: () => Promise<T>): Promise<T> {
  if (!organizationId) throw new Error("withOrganizationScope needs an organization id");
  return scopes.run({ organizationId }, work);
}

/** Runs `work` across every organization, for a named reason (see SYSTEM_SCOPE_REASONS). */
export function withSystemScope<T>(reason: SystemScopeReason, work: () => Promise<T>): Promise<T> {
  if (!(reason in SYSTEM_SCOPE_REASONS)) throw new Error(`unknown system scope reason: ${reason}`);
  return scopes.run({ system: reason }, work);
}

/**
 * Runs `work` in no scope at all. For what starts long-lived work (the job
 * queue's timers) from inside a request: it must not inherit that request's
 * organization for the life of the process.
 */
export function withoutScope<T>(work: () => T): T {
  return scopes.exit(work);
}

/** The statement that sets a connection (session-wide) to `settings`; the pool runs it on every checkout. */
export const SET_SCOPE_STATEMENT = "select set_config('app.organization_id', $1, false), set_config('app.system_scope', $2, false)";
/** The same, for one transaction only (PGlite, whose one connection every request shares). */
export const SET_TRANSACTION_SCOPE_STATEMENT = "select set_config('app.organization_id', $1, true), set_config('app.system_scope', $2, true)";

/**
 * Inside a transaction, whose connection keeps the scope it was taken in:
 * `work` runs in the system scope, then the transaction's own scope is back.
 * Only for a query that must stay in the transaction (a server-wide count
 * under the transaction's lock); elsewhere, withSystemScope.
 */
export async function withSystemScopeInTransaction<T>(tx: Db, reason: SystemScopeReason, work: () => Promise<T>): Promise<T> {
  // drizzle's `is`, not instanceof: a bundle may hold two copies of drizzle's classes (the Next build does).
  if (!is(tx, PgTransaction)) throw new Error("withSystemScopeInTransaction needs a transaction");
  if (!(reason in SYSTEM_SCOPE_REASONS)) throw new Error(`unknown system scope reason: ${reason}`);
  // Read and set in one statement (admission runs this in every analyze request): the CTE's row is
  // read before the outer select list, whose set_config runs on it, can be computed.
  const [previous] = await queryRows<{ system: string | null }>(
    tx,
    sql`with previous as materialized (select current_setting('app.system_scope', true) as system)
        select system, set_config('app.system_scope', ${reason}, true) from previous`,
  );
  try {
    return await work();
  } finally {
    // After an error that aborted the transaction this fails too: it rolls back, and its setting with it.
    await tx.execute(sql`select set_config('app.system_scope', ${previous?.system ?? ""}, true)`).catch(() => undefined);
  }
}
