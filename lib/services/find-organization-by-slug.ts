import type { Db } from "@/db/client";
import { getOrganizationBySlug } from "@/db/queries/organizations";
import type { Organization } from "@/db/schema";

/** The organization with this slug, or null. */
export async function findOrganizationBySlug(db: Db, slug: string): Promise<Organization | null> {
  return (await getOrganizationBySlug(db, slug)) ?? null;
}
