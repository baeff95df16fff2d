import { eq } from "drizzle-orm";
import type { Db } from "../client";
import { organizations, type Organization } from "../schema";

export async function getOrganizationBySlug(db: Db, slug: string): Promise<Organization | undefined> {
  const [row] = await db.select().from(organizations).where(eq(organizations.slug, slug)).limit(1);
  return row;
}

export async function getOrganizationById(db: Db, organizationId: string): Promise<Organization | undefined> {
  const [row] = await db.select().from(organizations).where(eq(organizations.id, organizationId)).limit(1);
  return row;
}

/** Inserts the organization unless the slug exists; returns the stored one either way. */
export async function ensureOrganization(
  db: Db,
  values: { id: string; slug: string; name: string },
): Promise<{ organization: Organization; created: boolean }> {
  const [inserted] = await db.insert(organizations).values(values).onConflictDoNothing().returning();
  if (inserted) return { organization: inserted, created: true };
  const existing = await getOrganizationBySlug(db, values.slug);
  if (!existing) throw new Error(`organization ${values.slug} vanished during creation`);
  return { organization: existing, created: false };
}
