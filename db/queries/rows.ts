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

/** A json or jsonb column's value: parsed by the driver, or still text where no type parser applies (a raw column). */
export function jsonValue<T>(value: T | string): T {
  return (typeof value === "string" ? JSON.parse(value) : value) as T;
}
