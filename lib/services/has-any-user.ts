import { sql } from "drizzle-orm";
import type { Db } from "@/db/client";
import { users } from "@/db/schema";

/** Whether anyone can sign in yet: the first-run page exists only while this is false. */
export async function hasAnyUser(db: Db): Promise<boolean> {
  const [row] = await db.select({ found: sql<boolean>`true` }).from(users).limit(1);
  return Boolean(row);
}
