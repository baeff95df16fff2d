import type { Db } from "@/db/client";
import { findMembership } from "@/db/queries/users";
import { ApiError } from "@/lib/errors";

/** Re-read from the database on every call, so a demoted admin is refused at once. */
export async function requireAdmin(db: Db, params: { organizationId: string; userId: string }): Promise<void> {
  const membership = await findMembership(db, params);
  if (membership?.role !== "admin") {
    throw new ApiError("forbidden", "Only an administrator of this organization can manage its API keys.");
  }
}
