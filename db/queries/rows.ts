import type { SQL } from "drizzle-orm";
import type { Db } from "../client";

/**
 * Rows of a raw statement. Both drivers return `{ rows }` from `execute`, but the
 * shared `Db` type cannot know that, so the shape is asserted in this one place.
 */
export async function queryRows<Row>(db: Db, query: SQL): Promise<Row[]> {
  const result = (await db.execute(query)) as unknown as { rows: Row[] };
  return result.rows;
}
