import { and, eq, gt, sql } from "drizzle-orm";
import type { Db } from "../client";
import { signInAddresses } from "../schema";

/** Records (or refreshes) a successful sign-in of the user from the address. Owned by the user, not an organization. */
export async function upsertSignInAddress(db: Db, params: { userId: string; address: string }): Promise<void> {
  await db
    .insert(signInAddresses)
    .values({ userId: params.userId, address: params.address })
    .onConflictDoUpdate({ target: [signInAddresses.userId, signInAddresses.address], set: { lastSignedInAt: sql`now()` } });
}

/** Whether the user signed in from the address within the last `withinDays` days (database clock). */
export async function hasRecentSignInAddress(
  db: Db,
  params: { userId: string; address: string; withinDays: number },
): Promise<boolean> {
  const [row] = await db
    .select({ userId: signInAddresses.userId })
    .from(signInAddresses)
    .where(
      and(
        eq(signInAddresses.userId, params.userId),
        eq(signInAddresses.address, params.address),
        gt(signInAddresses.lastSignedInAt, sql`now() - make_interval(days => ${params.withinDays})`),
      ),
    )
    .limit(1);
  return Boolean(row);
}
