import { lt, sql } from "drizzle-orm";
import type { Db } from "../client";
import { revokedSessions } from "../schema";

/** Lists a session as ended, and forgets sessions whose tokens have expired anyway. */
export async function revokeSession(db: Db, params: { sessionId: string; userId: string; expiresAt: Date }): Promise<void> {
  await db.insert(revokedSessions).values(params).onConflictDoNothing();
  await db.delete(revokedSessions).where(lt(revokedSessions.expiresAt, sql`now()`));
}
