import { sql, type SQL } from "drizzle-orm";
import type PgBoss from "pg-boss";
import type { Db } from "@/db/client";
import { withScopeKept } from "@/db/scope";

/**
 * pg-boss runs its SQL through an executor we hand it, rather than a pool of
 * its own: one connection setting for the whole process, and it is the only
 * way pg-boss can run on embedded PGlite (one connection, one process).
 */
type Executor = PgBoss.Db;

interface PgliteClient {
  exec(text: string): Promise<{ rows: unknown[] }[]>;
  query(text: string, values?: unknown[]): Promise<{ rows: unknown[] }>;
}
interface PgPool {
  query(text: string, values?: unknown[]): Promise<{ rows: unknown[] }>;
}

function isPglite(client: unknown): client is PgliteClient {
  return typeof (client as Partial<PgliteClient>).exec === "function";
}

/**
 * The executor on the database's own client. PGlite's `query` takes one
 * statement, so pg-boss's multi-statement scripts without parameters (schema
 * creation, maintenance) go through `exec`.
 */
export function clientExecutor(db: Db): Executor {
  const client = (db as unknown as { $client: PgliteClient | PgPool }).$client;
  // pg-boss's statements touch its own tables only: a connection in any scope serves them.
  if (isPglite(client)) {
    return {
      executeSql: (text, values) =>
        withScopeKept("job queue", async () => {
          if (values && values.length > 0) return client.query(text, values);
          const results = await client.exec(text);
          return results.at(-1) ?? { rows: [] };
        }),
    };
  }
  return { executeSql: (text, values) => withScopeKept("job queue", () => client.query(text, values)) };
}

/** pg-boss's `$n` placeholders as one drizzle statement with bound parameters. */
function statementOf(text: string, values: unknown[]): SQL {
  const chunks: SQL[] = [];
  let from = 0;
  for (const match of text.matchAll(/\$(\d+)/g)) {
    chunks.push(sql.raw(text.slice(from, match.index)), sql`${sql.param(values[Number(match[1]) - 1] ?? null)}`);
    from = match.index + match[0].length;
  }
  chunks.push(sql.raw(text.slice(from)));
  return sql.join(chunks);
}

/**
 * An executor inside a drizzle transaction: the queue's job is inserted in the
 * same transaction as our own job row, so a job is never accepted without a
 * queue entry, nor queued without its row.
 */
export function transactionExecutor(tx: Db): Executor {
  return {
    executeSql: async (text, values) => {
      const result = (await tx.execute(statementOf(text, values ?? []))) as unknown as { rows: unknown[] };
      return { rows: result.rows };
    },
  };
}
