import { and, eq, inArray, like, lt, sql } from "drizzle-orm";
import type { Db } from "../client";
import { analyses, analysisJobs, apiKeys, auditEvents, organizations, rateLimits, storedFiles } from "../schema";

/**
 * Organizations the server makes for its start-up warm-up (lib/api/warm-up.ts)
 * have slugs that begin so: no operator can make one (a slug begins with a
 * letter or a digit, lib/services/validation.ts), so no customer's
 * organization is ever taken for one.
 */
export const WARM_UP_SLUG_PREFIX = "_warm-up-";

/** Warm-up organizations made more than `minutes` ago: left by a start that died during its warm-up. */
export async function listStaleWarmUpOrganizations(db: Db, minutes: number): Promise<string[]> {
  const rows = await db
    .select({ id: organizations.id })
    .from(organizations)
    .where(and(like(organizations.slug, `${WARM_UP_SLUG_PREFIX}%`), lt(organizations.createdAt, sql`now() - make_interval(mins => ${minutes})`)));
  return rows.map((row) => row.id);
}

/**
 * Removes a warm-up organization and every row its analyze requests left:
 * analyses, jobs, stored files (their chunks go with them), the audit trail of
 * its key, its key, its rate-limit `buckets`. In one transaction (the caller's).
 */
export async function deleteWarmUpOrganization(tx: Db, organizationId: string, buckets: string[]): Promise<void> {
  const [organization] = await tx.select({ slug: organizations.slug }).from(organizations).where(eq(organizations.id, organizationId));
  if (!organization?.slug.startsWith(WARM_UP_SLUG_PREFIX)) throw new Error(`${organizationId} is not a warm-up organization`);
  await tx.delete(analyses).where(eq(analyses.organizationId, organizationId));
  await tx.delete(analysisJobs).where(eq(analysisJobs.organizationId, organizationId));
  await tx.delete(storedFiles).where(eq(storedFiles.organizationId, organizationId));
  await tx.delete(auditEvents).where(eq(auditEvents.organizationId, organizationId));
  await tx.delete(apiKeys).where(eq(apiKeys.organizationId, organizationId));
  if (buckets.length > 0) await tx.delete(rateLimits).where(inArray(rateLimits.bucket, buckets));
  await tx.delete(organizations).where(eq(organizations.id, organizationId));
}
