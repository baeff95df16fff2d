import { sql } from "drizzle-orm";
import type { Db } from "./client";

/**
 * Runs `work` in a transaction whose every query sees only this
 * organization's rows of the organization-owned tables, whatever filters the
 * queries themselves carry: the row-level security policies of migration
 * 0010 compare each row's organization_id with app.organization_id, which is
 * set here for this transaction only (set_config(…, true)), so a pooled
 * connection never carries it into another request.
 *
 * It binds only where the database enforces row-level security on the
 * connection's role: the non-owner role of DATABASE_APP_ROLE. A superuser
 * (embedded PGlite, a development server) bypasses the policies.
 */
export async function withOrganizationScope<T>(db: Db, organizationId: string, work: (tx: Db) => Promise<T>): Promise<T> {
  if (!organizationId) throw new Error("withOrganizationScope needs an organization id");
  return db.transaction(async (tx) => {
    await tx.execute(sql`select set_config('app.organization_id', ${organizationId}, true)`);
    return work(tx);
  });
}
